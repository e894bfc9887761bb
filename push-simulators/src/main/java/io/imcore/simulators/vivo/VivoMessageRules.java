package io.imcore.simulators.vivo;

import io.vertx.core.json.JsonObject;
import java.util.Map;
import java.util.Set;

/**
 * What vivo refuses in the notification fields of {@code /message/send} and {@code /message/saveListPayload}. Each
 * rule names its source: "doc" is vivo's 推送服务端API接口文档 (单推接口 input parameters; the copies read are v2.9.2
 * and the newer PUSH-UPS-API doc 362), "SDK" the official vpush-server-sdk 3.3 ({@code com.vivo.push.sdk.*}),
 * "分类" vivo's 推送消息分类说明 (doc 359, since 2023-04-03).
 */
final class VivoMessageRules {

    /**
     * The simulator's code for a refused field: vivo answers a business error as {@code {result, desc: "xxx 不合法"}}
     * (doc); its per-field codes were not in the copies read.
     */
    static final int PARAMETER_INVALID = 10055;
    /** 分类 (as transcribed in third-party clients of the doc): a category not in the list, or not matching. */
    static final int CATEGORY_INVALID = 10096;
    static final int CATEGORY_MISMATCH = 10097;

    /** vivo's answer to a refused message. */
    record Refusal(int result, String desc) {}

    static final int TITLE_MAX = 40;
    static final int CONTENT_MAX = 100;
    static final int REQUEST_ID_MAX = 64;

    /** 分类: system categories (classification 1) and operational ones (classification 0). */
    static final Map<String, Integer> CATEGORIES = Map.of(
            "IM", 1, "ACCOUNT", 1, "TODO", 1, "DEVICE_REMINDER", 1, "ORDER", 1, "SUBSCRIPTION", 1,
            "NEWS", 0, "CONTENT", 0, "MARKETING", 0, "SOCIAL", 0);

    private VivoMessageRules() {}

    /** Why vivo refuses this message, or null. */
    static Refusal refusal(JsonObject body) {
        // doc: title required, "最大20个汉字（一个汉字等于两个英文字符）", at most 40 units; content 50 汉字 / 100 units
        if (!textWithin(body.getValue("title"), TITLE_MAX)) {
            return invalid("title 不合法");
        }
        if (!textWithin(body.getValue("content"), CONTENT_MAX)) {
            return invalid("content 不合法");
        }
        // doc: notifyType required, 1 none, 2 ring, 3 vibrate, 4 ring and vibrate
        if (!intIn(body.getValue("notifyType"), 1, 4)) {
            return invalid("notifyType 不合法");
        }
        // doc: skipType required, 1 open the app, 2 a link, 3 custom, 4 a page of the app; skipContent required for
        // 2 to 4, at most 1000 characters for a link and 1024 for 3 and 4
        Object skipType = body.getValue("skipType");
        if (!intIn(skipType, 1, 4)) {
            return invalid("skipType 不合法");
        }
        int skip = ((Number) skipType).intValue();
        Object skipContent = body.getValue("skipContent");
        if (skip != 1 && !(skipContent instanceof String s && !s.isEmpty() && s.length() <= (skip == 2 ? 1000 : 1024))) {
            return invalid("skipContent 不合法");
        }
        // doc 2.9.x: timeToLive optional, at least 900 s, at most 7 days (the stricter of the doc versions read)
        if (body.containsKey("timeToLive") && !intIn(body.getValue("timeToLive"), 900, 7 * 24 * 3600)) {
            return invalid("timeToLive 不合法");
        }
        // doc: networkType -1 any network, 1 wifi only
        Object networkType = body.getValue("networkType");
        if (networkType != null && !(intIn(networkType, -1, -1) || intIn(networkType, 1, 1))) {
            return invalid("networkType 不合法");
        }
        // doc: requestId required, at most 64 characters
        if (!(body.getValue("requestId") instanceof String requestId) || requestId.isEmpty()
                || requestId.length() > REQUEST_ID_MAX) {
            return invalid("requestId 不合法");
        }
        // doc + SDK (Map<String,String> clientCustomMap): at most 10 pairs, keys and values 1024 characters in all
        Object custom = body.getValue("clientCustomMap");
        if (custom != null && !stringMapWithin(custom, 10, 1024)) {
            return invalid("clientCustomMap 不合法");
        }
        // doc "高级特性 extra" + SDK (Map<String,String> extra; extra(): callback, callback.param; extraV2():
        // callback.id, callback.param): callback at most 128 characters, callback.param 64
        Object extra = body.getValue("extra");
        if (extra != null && !(stringMapWithin(extra, Integer.MAX_VALUE, Integer.MAX_VALUE)
                && lengthAtMost(((JsonObject) extra).getValue("callback"), 128)
                && lengthAtMost(((JsonObject) extra).getValue("callback.param"), 64))) {
            return invalid("extra 不合法");
        }
        // doc: classification 0 operational, 1 system; pushMode 0 formal, 1 test
        Object classification = body.getValue("classification");
        if (classification != null && !intIn(classification, 0, 1)) {
            return invalid("classification 不合法");
        }
        if (body.containsKey("pushMode") && !intIn(body.getValue("pushMode"), 0, 1)) {
            return invalid("pushMode 不合法");
        }
        // doc 362 notifyId: optional, "值范围：1~2147483647" (SDK Message.notifyId is an Integer)
        if (body.containsKey("notifyId") && !intIn(body.getValue("notifyId"), 1, Integer.MAX_VALUE)) {
            return invalid("notifyId 不合法");
        }
        // 分类 + doc: category upper case from the list (10096); with a classification, they must match (10097)
        Object category = body.getValue("category");
        if (category != null) {
            Integer expected = category instanceof String name ? CATEGORIES.get(name) : null;
            if (expected == null) {
                return new Refusal(CATEGORY_INVALID, "category 不合法");
            }
            if (classification != null && ((Number) classification).intValue() != expected) {
                return new Refusal(CATEGORY_MISMATCH, "category 与 classification 不匹配");
            }
        }
        return null;
    }

    private static Refusal invalid(String desc) {
        return new Refusal(PARAMETER_INVALID, desc);
    }

    private static boolean textWithin(Object value, int max) {
        return value instanceof String text && !text.isEmpty() && vivoLength(text) <= max;
    }

    private static boolean intIn(Object value, int min, int max) {
        return value instanceof Integer || value instanceof Long
                ? ((Number) value).longValue() >= min && ((Number) value).longValue() <= max : false;
    }

    private static boolean lengthAtMost(Object value, int max) {
        return value == null || value instanceof String s && s.length() <= max;
    }

    /** A JSON object of string values, at most {@code pairs} of them, keys and values {@code chars} in all. */
    private static boolean stringMapWithin(Object value, int pairs, int chars) {
        if (!(value instanceof JsonObject map) || map.size() > pairs) {
            return false;
        }
        long total = 0;
        for (Map.Entry<String, Object> entry : map) {
            if (!(entry.getValue() instanceof String text)) {
                return false;
            }
            total += entry.getKey().length() + text.length();
        }
        return total <= chars;
    }

    /** CJK blocks counted twice (the SDK's Validation.isChinese). */
    private static final Set<Character.UnicodeBlock> CJK = Set.of(
            Character.UnicodeBlock.CJK_UNIFIED_IDEOGRAPHS, Character.UnicodeBlock.CJK_COMPATIBILITY_IDEOGRAPHS,
            Character.UnicodeBlock.CJK_SYMBOLS_AND_PUNCTUATION, Character.UnicodeBlock.CJK_UNIFIED_IDEOGRAPHS_EXTENSION_A,
            Character.UnicodeBlock.CJK_UNIFIED_IDEOGRAPHS_EXTENSION_B, Character.UnicodeBlock.CJK_UNIFIED_IDEOGRAPHS_EXTENSION_C,
            Character.UnicodeBlock.CJK_UNIFIED_IDEOGRAPHS_EXTENSION_D, Character.UnicodeBlock.GENERAL_PUNCTUATION,
            Character.UnicodeBlock.HALFWIDTH_AND_FULLWIDTH_FORMS);

    /**
     * vivo's length as the SDK's Validation counts it: UTF-16 units, plus one for each character of the CJK blocks
     * (so a CJK character counts two, and an emoji, two UTF-16 units, two as well; the doc says one).
     */
    static int vivoLength(String text) {
        int length = text.length();
        for (int i = 0; i < text.length(); i++) {
            if (CJK.contains(Character.UnicodeBlock.of(text.charAt(i)))) {
                length++;
            }
        }
        return length;
    }
}
