package io.imcore.console.page;

import io.quarkus.qute.i18n.Message;
import java.lang.reflect.Parameter;
import java.lang.reflect.Proxy;

/** The English messages outside Quarkus, for unit tests of code that writes texts: parameters put in. */
public final class EnglishMessages {

    private EnglishMessages() {
    }

    public static ConsoleMessages get() {
        return (ConsoleMessages) Proxy.newProxyInstance(ConsoleMessages.class.getClassLoader(),
                new Class<?>[] {ConsoleMessages.class}, (proxy, method, args) -> {
                    String text = method.getAnnotation(Message.class).value();
                    Parameter[] parameters = method.getParameters();
                    for (int i = 0; i < parameters.length; i++) {
                        text = text.replace("{" + parameters[i].getName() + "}", String.valueOf(args[i]));
                    }
                    return text;
                });
    }
}
