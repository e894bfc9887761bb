package io.imcore.auth.token;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * api.md 2.2 plus device_sn (decisions.md 3); push_token and device_sn are present when device_guid was sent.
 * store_token and access_key_secret are absent by decision: files travel through presigned URLs that the file calls
 * hand out, no client holds store credentials (docs/api-decisions.md "Files").
 */
@RegisterForReflection
@JsonInclude(JsonInclude.Include.NON_NULL)
public record TokenInfo(String token, long expire, long userId, String publicKey, int encryptType,
        String pushToken, Integer deviceSn) {}
