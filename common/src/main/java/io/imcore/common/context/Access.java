package io.imcore.common.context;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** Who may call an endpoint. Without the annotation an endpoint needs a user or admin token ({@link Level#USER}). */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
public @interface Access {

    Level value();

    enum Level {
        /** The operator: header {@code platform-key}; no app or token. */
        PLATFORM,
        /**
         * Another imcore service (the {@code /internal/*} endpoints): header {@code internal-key}, a secret of the
         * services' own, so that the operator's key need not be in every pod and the services' key opens no operator
         * endpoint.
         */
        INTERNAL,
        /**
         * No headers: the endpoint authenticates the caller itself (a push provider's delivery-receipt callback,
         * which carries a secret in the URL we gave the provider).
         */
        CALLBACK,
        /** No headers and no check: what the endpoint serves is public (the token-verification key set). */
        PUBLIC,
        /** Any caller of a known app (header {@code app_id}); an access-token is ignored. */
        APP,
        /** A user token, or an admin token (which may act as a user or group via headers). */
        USER,
        /** An admin token only. */
        ADMIN
    }
}
