package io.imcore.auth.token;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * api.md 2.2 plus device_sn (decisions.md 3). store_token and access_key_secret stay absent until a file
 * store exists; push_token and device_sn are present when device_guid was sent.
 */
@RegisterForReflection
@JsonInclude(JsonInclude.Include.NON_NULL)
public record TokenInfo(String token, long expire, long userId, String publicKey, int encryptType,
        String pushToken, Integer deviceSn, String storeToken, String accessKeySecret) {}
