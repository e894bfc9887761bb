package io.imcore.pushworker.channel.vivo;

import java.util.Optional;

/**
 * vivo's message categories (the {@code category} field, "二级分类"), each with the {@code classification} it belongs
 * to: 1 system message, 0 operational message (vivo 推送消息分类说明, documentCenter doc 359, in force since
 * 2023-04-03). vivo answers 10096 to a value not in this list (upper case only) and 10097 when a request's
 * classification does not match its category.
 */
public enum VivoCategory {
    /** 即时消息: chat messages between users. The built-in default of an IM product. */
    IM(1),
    /** 账号与资产. */
    ACCOUNT(1),
    /** 日程待办. */
    TODO(1),
    /** 设备信息. */
    DEVICE_REMINDER(1),
    /** 订单与物流. */
    ORDER(1),
    /** 订阅提醒. */
    SUBSCRIPTION(1),
    /** 新闻. */
    NEWS(0),
    /** 内容推荐. */
    CONTENT(0),
    /** 运营活动. */
    MARKETING(0),
    /** 社交动态. */
    SOCIAL(0);

    private final int classification;

    VivoCategory(int classification) {
        this.classification = classification;
    }

    /** 1 for a system category, 0 for an operational one. */
    public int classification() {
        return classification;
    }

    /** The category spelled exactly as vivo wants it (upper case), or empty. */
    public static Optional<VivoCategory> of(String name) {
        for (VivoCategory category : values()) {
            if (category.name().equals(name)) {
                return Optional.of(category);
            }
        }
        return Optional.empty();
    }
}
