package io.imcore.push.device;

import io.imcore.common.api.ApiException;
import io.imcore.common.api.StorableText;
import io.imcore.common.context.RequestContext;
import io.imcore.common.store.Database;
import io.imcore.push.certificate.CertificateRef;
import io.imcore.push.certificate.CertificateStore;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The caller's push registry (docs/push-devices.md): provider tokens of the caller's devices, the caller's tags,
 * device aliases and the user's opt-out. The caller is the token's user, or the user an admin names in the
 * {@code user_id} header.
 */
@ApplicationScoped
public class DeviceRegistryService {

    private static final int MAX_DEVICE_TOKEN = 512;
    private static final int MAX_TAG = 128;
    private static final int MAX_TAGS_PER_CALL = 100;
    private static final int MAX_TAGS_PER_USER = 1000;
    private static final int MAX_ALIAS = 128;
    static final int ALIAS_USERS_MAX = 100;

    private final Database database;
    private final DeviceStore devices;
    private final PushUserStore users;
    private final CertificateStore certificates;

    public DeviceRegistryService(Database database, DeviceStore devices, PushUserStore users,
            CertificateStore certificates) {
        this.database = database;
        this.devices = devices;
        this.users = users;
        this.certificates = certificates;
    }

    /**
     * Binds a provider token to one of the caller's devices. A device whose device.registered event has not arrived
     * yet may bind from its own token (the token names it): its row is created ahead of the event.
     */
    @Transactional
    public boolean bind(RequestContext caller, BindRequest body) {
        required(body);
        long userId = caller.requireUserId();
        int deviceSn = deviceSn(body.deviceSn());
        String token = requiredText("device_token", body.deviceToken());
        maxLength("device_token", token, MAX_DEVICE_TOKEN);
        String notifierName = requiredText("notifier_name", body.notifierName());
        String appId = caller.appId();
        CertificateRef notifier = certificates.findByName(appId, notifierName).orElseThrow(() ->
                ApiException.badParameter("notifier_name", "no push certificate of this app has that name"));
        devices.bind(appId, callerDevice(caller, userId, deviceSn), notifier.channel().wireName(), notifierName,
                notifier.environment(), token);
        return true;
    }

    /** The id of the caller's device; created ahead of its event when the caller's token names that very device. */
    private long callerDevice(RequestContext caller, long userId, int deviceSn) {
        Optional<PushDevice> known = devices.findDevice(caller.appId(), userId, deviceSn);
        if (known.isPresent()) {
            return known.get().deviceId;
        }
        if (!Objects.equals(caller.deviceSn(), deviceSn)) {
            throw ApiException.badParameter("device_sn", "not a device of the user");
        }
        // in this transaction, on its connection (the session's): the row is this transaction's, like the binding
        // that refers to it
        return database.inTransaction(c -> {
            if (devices.wasRemoved(c, caller.appId(), userId, deviceSn)) { // its token outlives it
                throw ApiException.badParameter("device_sn", "the device was removed (the user signed in on more"
                        + " devices than the limit): a new token with its device_guid registers it again");
            }
            return devices.createAheadOfEvent(c, caller.appId(), userId, deviceSn);
        });
    }

    /** Removes every provider token of the caller's device; true also when it had none. */
    @Transactional
    public boolean unbind(RequestContext caller, UnbindRequest body) {
        required(body);
        long userId = caller.requireUserId();
        int deviceSn = deviceSn(body.deviceSn());
        devices.findDevice(caller.appId(), userId, deviceSn).ifPresent(device -> devices.unbindAll(device.deviceId));
        return true;
    }

    @Transactional
    public List<String> tags(RequestContext caller) {
        long userId = caller.requireUserId();
        return users.tags(caller.appId(), userId);
    }

    /** Adds tags to the caller (the user, so all of the user's devices); returns the caller's tags after it. */
    @Transactional
    public List<String> addTags(RequestContext caller, TagsRequest body) {
        List<String> added = validTags(body);
        long userId = caller.requireUserId();
        String appId = caller.appId();
        users.lockTags(appId, userId);
        if (users.addTags(appId, userId, added) > MAX_TAGS_PER_USER) {
            throw ApiException.badParameter("tags", "a user has at most " + MAX_TAGS_PER_USER + " tags");
        }
        return users.tags(appId, userId);
    }

    /** Removes tags from the caller (tags the caller does not have are ignored); returns the caller's tags after it. */
    @Transactional
    public List<String> removeTags(RequestContext caller, TagsRequest body) {
        List<String> removed = validTags(body);
        long userId = caller.requireUserId();
        String appId = caller.appId();
        users.lockTags(appId, userId);
        users.removeTags(appId, userId, removed);
        return users.tags(appId, userId);
    }

    /** Sets the alias of the caller's device named by its push_token; an empty alias clears it. */
    @Transactional
    public boolean setAlias(RequestContext caller, AliasRequest body) {
        required(body);
        long userId = caller.requireUserId();
        String pushToken = requiredText("push_token", body.pushToken());
        if (body.alias() == null) {
            throw ApiException.badParameter("alias", "required (an empty alias clears it)");
        }
        checkAlias(body.alias());
        PushDevice device = devices.findByPushToken(caller.appId(), userId, pushToken)
                .orElseThrow(() -> ApiException.badParameter("push_token", "not a device of the user"));
        device.alias = body.alias().isEmpty() ? null : body.alias();
        return true;
    }

    /** {@code disabled} true opts the caller out of every push to any of the user's devices; false opts back in. */
    @Transactional
    public boolean setPushDisabled(RequestContext caller, boolean disabled) {
        long userId = caller.requireUserId();
        users.setPushDisabled(caller.appId(), userId, disabled);
        return true;
    }

    /** The app's users with a device carrying the alias (compared exactly, as a push to it does). */
    @Transactional
    public AliasUsers usersWithAlias(String appId, String alias) {
        if (alias == null || alias.isEmpty()) {
            throw ApiException.badParameter("alias", "required");
        }
        checkAlias(alias);
        List<Long> found = devices.usersWithAlias(appId, alias, ALIAS_USERS_MAX + 1);
        return new AliasUsers(alias, found.subList(0, Math.min(found.size(), ALIAS_USERS_MAX)),
                found.size() > ALIAS_USERS_MAX);
    }

    @Transactional
    public BoundTokenList boundTokens(RequestContext caller) {
        return boundTokens(caller.appId(), caller.requireUserId());
    }

    /** The provider tokens of a user of the app, masked; none for a user the app does not have. */
    @Transactional
    public BoundTokenList boundTokens(String appId, long userId) {
        return new BoundTokenList(devices.boundTokens(appId, userId).stream()
                .map(t -> new BoundToken(t.deviceSn(), t.notifierName(), t.channel(), TokenMask.mask(t.token()),
                        t.boundAt().toEpochMilli()))
                .toList());
    }

    @Transactional
    public PushSetting pushSetting(RequestContext caller) {
        long userId = caller.requireUserId();
        return new PushSetting(users.pushDisabled(caller.appId(), userId));
    }

    private static void required(Object body) {
        if (body == null) {
            throw ApiException.badParameter("body", "required");
        }
    }

    private static int deviceSn(Integer value) {
        if (value == null) {
            throw ApiException.badParameter("device_sn", "required");
        }
        if (value < 1) {
            throw ApiException.badParameter("device_sn", "must be at least 1");
        }
        return value;
    }

    private static String requiredText(String field, String value) {
        if (value == null || value.isEmpty()) {
            throw ApiException.badParameter(field, "required");
        }
        StorableText.check(field, value);
        return value;
    }

    private static void checkAlias(String alias) {
        StorableText.check("alias", alias);
        maxLength("alias", alias, MAX_ALIAS);
    }

    private static void maxLength(String field, String value, int max) {
        if (value.length() > max) {
            throw ApiException.badParameter(field, "at most " + max + " characters");
        }
    }

    private static List<String> validTags(TagsRequest body) {
        required(body);
        List<String> tags = body.tags();
        if (tags == null || tags.isEmpty()) {
            throw ApiException.badParameter("tags", "1 to " + MAX_TAGS_PER_CALL + " tags required");
        }
        if (tags.size() > MAX_TAGS_PER_CALL) {
            throw ApiException.badParameter("tags", "at most " + MAX_TAGS_PER_CALL + " tags per call");
        }
        for (int i = 0; i < tags.size(); i++) {
            String field = "tags[" + i + "]";
            maxLength(field, requiredText(field, tags.get(i)), MAX_TAG);
        }
        return tags;
    }
}
