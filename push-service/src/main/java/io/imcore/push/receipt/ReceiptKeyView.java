package io.imcore.push.receipt;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.Map;

/**
 * The app's receipt key as {@code GET /push/receipt_key} and {@code POST /push/receipt_key/rotate} answer it: the key
 * and, per channel whose provider calls back, the callback URL to enter in the provider's console (docs/api-decisions.md).
 */
@RegisterForReflection
@JsonPropertyOrder({"key", "callbacks"})
public record ReceiptKeyView(String key, Map<String, String> callbacks) {}
