package io.imcore.push.offlinepush;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.imcore.common.events.MessageEvent;
import io.imcore.common.events.MessageEvent.Recipient;
import io.imcore.push.fanout.ChannelRecords;
import io.imcore.push.offlinepush.OfflinePushStore.AppSettings;
import io.imcore.push.offlinepush.OfflinePushStore.Device;
import io.imcore.push.offlinepush.OfflinePushStore.NoDevice;
import io.imcore.push.offlinepush.OfflinePushStore.Shown;
import io.imcore.push.offlinepush.OfflinePushStore.TraceRow;
import io.imcore.push.offlinepush.OfflinePushStore.UserSettings;
import io.imcore.pushcontract.Channel;
import io.imcore.pushcontract.PushBatch.OsRoute;
import io.imcore.pushcontract.PushBatch.Target;
import io.imcore.pushcontract.PushBatch;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.zip.CRC32;

/**
 * Decides, per recipient device of a {@link MessageEvent}, whether it gets an OS notification, writes the decisions
 * to {@code offline_push_trace} and returns the channel records to send (docs/offline-push.md "Who gets one").
 */
@ApplicationScoped
public class OfflinePushPlanner {

    /** Decisions, as the trace shows them. */
    static final String LIVE = "live";
    static final String OFFLINE_PUSH = "offline_push";
    static final String LIVE_UNACKNOWLEDGED = "live_unacknowledged";
    static final String MUTED = "muted";
    static final String DO_NOT_DISTURB = "do_not_disturb";
    static final String NO_TOKEN = "no_token";
    static final String NO_DEVICE = "no_device";
    static final String USER_OPTED_OUT = "user_opted_out";
    static final String SENDER_OPTED_OUT = "sender_opted_out";
    /** The notification that replaces a recalled message's (docs/offline-push.md "Recall"). */
    static final String RECALLED = "recalled";

    /** The OS channel of a device without an ios token: the default ospush_sequence ({@code [ups, cloud]}). */
    private static final List<Channel> ANDROID_SEQUENCE = List.of(Channel.HUAWEI, Channel.XIAOMI, Channel.OPPO,
            Channel.VIVO, Channel.MEIZU, Channel.FCM);
    private static final int MAX_BADGE = 99999;

    private final OfflinePushStore store;
    private final ObjectMapper mapper;
    private final ChannelRecords channelRecords;

    public OfflinePushPlanner(OfflinePushStore store, ObjectMapper mapper, ChannelRecords channelRecords) {
        this.store = store;
        this.mapper = mapper;
        this.channelRecords = channelRecords;
    }

    /**
     * The decisions of one event: its trace rows, the recipients without any device (one row for all of them), and
     * the devices to notify per recipient with their route.
     */
    private record Decided(MessageEvent event, List<TraceRow> rows, NoDevice noDevice,
            Map<Recipient, Map<Device, OsRoute>> toSend) {}

    /**
     * The records to send for a poll's events, after this transaction commits; empty when nothing is to be sent.
     * Each app's settings, users, mutes and devices are read once for all its events, and the trace written in one
     * statement, so a busy poll costs a few statements rather than a few per message.
     */
    public List<ChannelRecords.Encoded> plan(Connection c, List<MessageEvent> events, Instant now)
            throws SQLException {
        Map<String, List<MessageEvent>> byApp = new LinkedHashMap<>();
        for (MessageEvent event : events) {
            boolean known = MessageEvent.CREATED.equals(event.type()) || MessageEvent.UNACKNOWLEDGED.equals(event.type())
                    || MessageEvent.RECALLED.equals(event.type()) && event.noticeId() != null;
            if (known && event.appId() != null && event.recipients() != null && !event.recipients().isEmpty()) {
                byApp.computeIfAbsent(event.appId(), a -> new ArrayList<>()).add(event);
            }
        }
        List<ChannelRecords.Encoded> records = new ArrayList<>();
        for (Map.Entry<String, List<MessageEvent>> app : byApp.entrySet()) {
            records.addAll(planApp(c, app.getKey(), app.getValue(), now));
        }
        return records;
    }

    private List<ChannelRecords.Encoded> planApp(Connection c, String appId, List<MessageEvent> events, Instant now)
            throws SQLException {
        AppSettings app = store.appSettings(c, appId);
        if (!app.pushEnabled() || !app.enabled()) {
            return List.of(); // the app does not use offline push: nothing to trace either
        }
        Set<Long> recipientIds = new TreeSet<>();
        Set<Long> userIds = new TreeSet<>();
        for (MessageEvent event : events) {
            event.recipients().forEach(r -> recipientIds.add(r.userId()));
            userIds.add(event.senderId());
        }
        userIds.addAll(recipientIds);
        long[] recipients = recipientIds.stream().mapToLong(Long::longValue).toArray();
        Map<Long, UserSettings> settings = store.userSettings(c, appId,
                userIds.stream().mapToLong(Long::longValue).toArray());
        Map<Long, Set<Long>> mutes = store.mutes(c, appId, recipients);
        Map<Long, List<Device>> devices = new HashMap<>();
        for (Device device : store.devices(c, appId, recipients)) {
            devices.computeIfAbsent(device.userId(), u -> new ArrayList<>()).add(device);
        }
        List<Decided> decided = new ArrayList<>();
        List<TraceRow> created = new ArrayList<>();
        List<NoDevice> withoutDevice = new ArrayList<>();
        Map<String, TraceRow> unacknowledged = new LinkedHashMap<>(); // one row per key: a statement updates a row once
        for (MessageEvent event : events) {
            if (MessageEvent.RECALLED.equals(event.type())) {
                continue;
            }
            Decided d = decide(event, settings, mutes, devices, now);
            decided.add(d);
            if (MessageEvent.UNACKNOWLEDGED.equals(event.type())) {
                d.rows().forEach(r -> unacknowledged.put(r.msgId() + ":" + r.userId() + ":" + r.deviceSn(), r));
            } else {
                created.addAll(d.rows());
            }
            if (d.noDevice() != null) {
                withoutDevice.add(d.noDevice());
            }
        }
        List<Decided> replacements = replacements(c, appId, events.stream()
                .filter(event -> MessageEvent.RECALLED.equals(event.type())).toList(), devices);
        replacements.forEach(d -> created.addAll(d.rows()));
        decided.addAll(replacements);
        store.insertTrace(c, appId, created, false);
        store.insertNoDevice(c, appId, withoutDevice);
        store.insertTrace(c, appId, List.copyOf(unacknowledged.values()), true);
        // what is still queued: this poll's decisions, or a crash's leftovers when an event is read again
        Set<String> queued = store.queued(c, appId, events.stream().mapToLong(OfflinePushPlanner::traced).distinct()
                .toArray());
        List<ChannelRecords.Encoded> records = new ArrayList<>();
        for (Decided d : decided) {
            if (!d.toSend().isEmpty()) {
                records.addAll(records(d, settings, queued, app.language()));
            }
        }
        return records;
    }

    /** The id an event's notifications are traced and claimed by: a recall's replacement has its own. */
    private static long traced(MessageEvent event) {
        return event.noticeId() != null ? event.noticeId() : event.msgId();
    }

    /**
     * The replacements of recalled messages' notifications (docs/offline-push.md "Recall"): to each device that was
     * sent the message's notification and has no newer one of the conversation, through its route of now, with the
     * recipient's badge without the message. The message's notifications still queued are never sent.
     */
    private List<Decided> replacements(Connection c, String appId, List<MessageEvent> recalls,
            Map<Long, List<Device>> devices) throws SQLException {
        if (recalls.isEmpty()) {
            return List.of();
        }
        Map<Long, List<Shown>> shown = new HashMap<>();
        for (Shown device : store.recalled(c, appId, recalls.stream().mapToLong(MessageEvent::msgId).toArray(),
                recalls.stream().mapToLong(MessageEvent::noticeId).toArray())) {
            shown.computeIfAbsent(device.msgId(), m -> new ArrayList<>()).add(device);
        }
        List<Decided> decided = new ArrayList<>();
        for (MessageEvent event : recalls) {
            Map<Long, Recipient> recipients = new HashMap<>();
            event.recipients().forEach(r -> recipients.put(r.userId(), r));
            List<TraceRow> rows = new ArrayList<>();
            Map<Recipient, Map<Device, OsRoute>> toSend = new LinkedHashMap<>();
            for (Shown was : shown.getOrDefault(event.msgId(), List.of())) {
                Recipient recipient = recipients.get(was.userId());
                Device device = devices.getOrDefault(was.userId(), List.of()).stream()
                        .filter(d -> d.deviceId() == was.deviceId()).findFirst().orElse(null);
                OsRoute route = device == null || device.optedOut() ? null : osRoute(device);
                if (recipient == null || route == null) {
                    continue; // the device, its token or the user's consent is gone: nothing to replace through
                }
                rows.add(new TraceRow(event.noticeId(), was.userId(), was.deviceSn(), was.deviceId(),
                        was.conversation(), RECALLED, route.channel(), "queued"));
                toSend.computeIfAbsent(recipient, r -> new LinkedHashMap<>()).put(device, route);
            }
            decided.add(new Decided(event, rows, null, toSend));
        }
        return decided;
    }

    /** The decision for each recipient device of one event (docs/offline-push.md "Who gets one"). */
    private static Decided decide(MessageEvent event, Map<Long, UserSettings> settings, Map<Long, Set<Long>> mutes,
            Map<Long, List<Device>> devices, Instant now) {
        boolean unacknowledged = MessageEvent.UNACKNOWLEDGED.equals(event.type());
        boolean senderOptedOut = event.push() != null && Boolean.FALSE.equals(event.push().enabled());
        List<TraceRow> rows = new ArrayList<>();
        List<Long> noDevice = new ArrayList<>();
        String noDeviceConversation = null; // one per message: the group, the system conversation or the peer
        Map<Recipient, Map<Device, OsRoute>> toSend = new LinkedHashMap<>();
        for (Recipient recipient : event.recipients()) {
            String conversation = conversationKey(event, recipient);
            List<Device> own = devices.getOrDefault(recipient.userId(), List.of());
            if (own.isEmpty() && !unacknowledged) {
                noDevice.add(recipient.userId());
                noDeviceConversation = conversation;
                continue;
            }
            UserSettings user = settings.getOrDefault(recipient.userId(), UserSettings.DEFAULT);
            boolean mentioned = mentioned(event, recipient.userId());
            boolean muted = mutes.getOrDefault(recipient.userId(), Set.of()).contains(recipient.conversationId())
                    && !mentioned;
            boolean quiet = quietHours(user, now);
            List<Integer> live = recipient.liveDevices() == null ? List.of() : recipient.liveDevices();
            for (Device device : own) {
                boolean isLive = live.contains(device.deviceSn());
                if (unacknowledged && !isLive) {
                    continue; // decided when the message came
                }
                OsRoute route = osRoute(device);
                String decision = !unacknowledged && isLive ? LIVE
                        : senderOptedOut ? SENDER_OPTED_OUT
                        : device.optedOut() ? USER_OPTED_OUT
                        : muted ? MUTED
                        : quiet ? DO_NOT_DISTURB
                        : route == null ? NO_TOKEN
                        : unacknowledged ? LIVE_UNACKNOWLEDGED : OFFLINE_PUSH;
                boolean send = OFFLINE_PUSH.equals(decision) || LIVE_UNACKNOWLEDGED.equals(decision);
                rows.add(new TraceRow(event.msgId(), recipient.userId(), device.deviceSn(), device.deviceId(),
                        conversation, decision, route == null ? null : route.channel(), send ? "queued" : "decided"));
                if (send) {
                    toSend.computeIfAbsent(recipient, r -> new LinkedHashMap<>()).put(device, route);
                }
            }
        }
        return new Decided(event, rows,
                noDevice.isEmpty() ? null : new NoDevice(event.msgId(), noDeviceConversation, noDevice), toSend);
    }

    /**
     * The records of one message, for its devices still queued: recipients whose notification reads the same (a
     * group's members, but for mentions and hidden previews) share one record per channel, so a provider takes them
     * in one request (a record too large for Kafka is cut by ChannelRecords); each device's badge (its user's unread
     * count) is in the record's {@code badges}.
     */
    private List<ChannelRecords.Encoded> records(Decided d, Map<Long, UserSettings> settings, Set<String> queued, String language) {
        MessageEvent event = d.event();
        String senderName = settings.getOrDefault(event.senderId(), UserSettings.DEFAULT).displayName();
        Map<String, ObjectNode> messages = new LinkedHashMap<>(); // by channel and text
        Map<String, List<Target>> targets = new LinkedHashMap<>();
        Map<String, String> conversations = new HashMap<>(); // by the same key
        for (Map.Entry<Recipient, Map<Device, OsRoute>> entry : d.toSend().entrySet()) {
            Recipient recipient = entry.getKey();
            UserSettings user = settings.getOrDefault(recipient.userId(), UserSettings.DEFAULT);
            String conversation = conversationKey(event, recipient);
            ObjectNode message = message(event, recipient, conversation, language,
                    event.senderId() == 0 ? null : senderName, user.showPreview());
            long badge = Math.min(Math.max(recipient.unread(), 0), MAX_BADGE);
            for (Map.Entry<Device, OsRoute> send : entry.getValue().entrySet()) {
                Device device = send.getKey();
                if (!queued.contains(traced(event) + ":" + device.deviceId())) {
                    continue;
                }
                OsRoute route = send.getValue();
                String key = route.channel() + "\u0000" + message;
                conversations.put(key, conversation);
                ObjectNode shared = messages.computeIfAbsent(key, k -> {
                    ObjectNode copy = message.deepCopy();
                    copy.putObject("badges");
                    return copy;
                });
                ((ObjectNode) shared.get("badges")).put(Long.toString(device.deviceId()), badge);
                targets.computeIfAbsent(key, k -> new ArrayList<>()).add(new Target(device.deviceId(),
                        device.userId(), device.deviceSn(), route.token(), route.notifierName(), route.environment(),
                        null));
            }
        }
        List<ChannelRecords.Encoded> records = new ArrayList<>();
        for (Map.Entry<String, List<Target>> group : targets.entrySet()) {
            String channel = group.getKey().substring(0, group.getKey().indexOf('\u0000'));
            records.addAll(channelRecords.encode(new PushBatch(PushBatch.VERSION, 0, event.appId(), records.size(),
                    channel, messages.get(group.getKey()), null, List.copyOf(group.getValue()),
                    new PushBatch.Offline(traced(event), conversations.get(group.getKey()), event.createdMs()))));
        }
        return records;
    }

    /** The recipient's conversation: {@code u:<peer>}, {@code g:<group>} or {@code s} (system notifications). */
    static String conversationKey(MessageEvent event, Recipient recipient) {
        return switch (event.kind()) {
            case MessageEvent.GROUP -> "g:" + event.groupId();
            case MessageEvent.SYSTEM -> "s";
            default -> "u:" + recipient.conversationId();
        };
    }

    private static boolean mentioned(MessageEvent event, long userId) {
        return event.mentionAll() || event.mentions() != null && event.mentions().contains(userId);
    }

    /** ios when the device has an ios token, else the first Android channel of the default sequence it has. */
    private static OsRoute osRoute(Device device) {
        OsRoute ios = device.routes().get(Channel.APNS);
        if (ios != null) {
            return ios;
        }
        for (Channel channel : ANDROID_SEQUENCE) {
            OsRoute route = device.routes().get(channel);
            if (route != null) {
                return route;
            }
        }
        return null;
    }

    /** Inside the user's do-not-disturb hours, in their time zone (an overnight range wraps past midnight). */
    static boolean quietHours(UserSettings user, Instant now) {
        if (user.dndStart() == null || user.dndEnd() == null || user.dndStart().equals(user.dndEnd())) {
            return false;
        }
        ZoneId zone;
        try {
            zone = ZoneId.of(user.timeZone());
        } catch (DateTimeException e) {
            zone = ZoneId.of("UTC");
        }
        LocalTime local = LocalTime.ofInstant(now, zone);
        int minute = local.getHour() * 60 + local.getMinute();
        int start = user.dndStart();
        int end = user.dndEnd();
        return start < end ? minute >= start && minute < end : minute >= start || minute < end;
    }

    /**
     * The normalized message (docs/push-notify.md) of one recipient's notification, but its badge: texts, the conversation and message in ext for the tap, and the conversation as thread, collapse key,
     * notification id and group, so that a newer message of the conversation replaces the older notification.
     */
    private ObjectNode message(MessageEvent event, Recipient recipient, String conversation, String language,
            String senderName, boolean preview) {
        OfflineTexts.Texts texts = OfflineTexts.of(language, event, senderName, preview,
                mentioned(event, recipient.userId()));
        ObjectNode message = mapper.createObjectNode();
        message.put("type", "text");
        message.put("title", texts.title());
        message.put("body", texts.body());
        ObjectNode ext = message.putObject("ext");
        ext.put("conversation_type", event.kind());
        ext.put("conversation_id", Long.toString(recipient.conversationId()));
        ext.put("msg_id", Long.toString(event.msgId()));
        message.putObject("ios").put("thread_id", conversation);
        message.putObject("channels");
        String key = "im-" + conversation;
        message.put("collapse_key", key);
        message.put("notify_id", notifyId(event.appId() + "/" + conversation));
        message.put("group", key);
        return message;
    }

    /** A positive 31-bit notification id per conversation. */
    private static int notifyId(String conversation) {
        CRC32 crc = new CRC32();
        crc.update(conversation.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        int id = (int) (crc.getValue() & 0x7fffffffL);
        return id == 0 ? 1 : id;
    }
}
