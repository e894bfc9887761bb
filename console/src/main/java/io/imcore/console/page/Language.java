package io.imcore.console.page;

import io.quarkus.qute.i18n.Localized;
import io.quarkus.qute.i18n.MessageBundles;
import io.vertx.core.http.Cookie;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * The request's language, chosen once here for every page ({@code {inject:language.tag}} in base.html; the template
 * instances get it as their {@code locale} through {@link LanguageInitializer}): the {@code console_lang} cookie set
 * by the header's switch, else the first language of Accept-Language the console has (zh, zh-CN, zh-Hans: Simplified
 * Chinese; en: English), else English.
 */
@Named
@RequestScoped
public class Language {

    public static final String COOKIE = "console_lang";
    private static final Locale ENGLISH = Locale.ENGLISH;
    private static final Locale CHINESE = Locale.forLanguageTag("zh-CN");

    @Inject
    HttpServerRequest request;

    private Locale locale;

    public Locale locale() {
        if (locale == null) {
            Cookie cookie = request.getCookie(COOKIE);
            Locale chosen = cookie == null ? null : supported(cookie.getValue());
            locale = chosen != null ? chosen : fromAcceptLanguage(request.getHeader("Accept-Language"));
        }
        return locale;
    }

    /** The IETF tag of the page's language, for {@code <html lang>} and the switch. */
    public String tag() {
        return locale().toLanguageTag();
    }

    /** The messages in the request's language, for the texts the page classes write. */
    public ConsoleMessages msg() {
        return messages(ConsoleMessages.class);
    }

    /** Another message bundle (a page package's own) in the request's language. */
    public <T> T messages(Class<T> bundle) {
        return MessageBundles.get(bundle, Localized.Literal.of(tag()));
    }

    /**
     * Where the switch returns to: this page when it was a GET, else the console's start (a page that answered a
     * form has no address of its own to reload). URL-encoded for the switch's query.
     */
    public String back() {
        String back = request.method() == HttpMethod.GET ? request.uri() : SessionGuard.PATH + "/";
        return URLEncoder.encode(back, StandardCharsets.UTF_8);
    }

    /** English or Chinese for a tag the console offers, else null. */
    static Locale supported(String tag) {
        if (tag == null) {
            return null;
        }
        String lower = tag.strip().toLowerCase(Locale.ROOT);
        if (lower.equals("zh") || lower.equals("zh-cn") || lower.equals("zh-hans") || lower.startsWith("zh-hans-")) {
            return CHINESE;
        }
        if (lower.equals("en") || lower.startsWith("en-") || lower.equals("*")) {
            return ENGLISH;
        }
        return null;
    }

    /** The Accept-Language range of the highest weight the console offers; English when none or unreadable. */
    static Locale fromAcceptLanguage(String header) {
        if (header == null || header.isBlank()) {
            return ENGLISH;
        }
        try {
            for (Locale.LanguageRange range : Locale.LanguageRange.parse(header)) {
                Locale chosen = range.getWeight() > 0 ? supported(range.getRange()) : null;
                if (chosen != null) {
                    return chosen;
                }
            }
        } catch (IllegalArgumentException e) {
            // a malformed header is answered in the default language, not refused
        }
        return ENGLISH;
    }
}
