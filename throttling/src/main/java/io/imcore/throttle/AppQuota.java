package io.imcore.throttle;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The endpoint counts against its app's quota of this name ({@code im.throttle.quota.<name>}, overridable per app by
 * the operator). Checked by {@link AppQuotaFilter} after authentication, so calls without a valid token never use up
 * an app's quota.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface AppQuota {

    String value();
}
