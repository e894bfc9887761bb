package io.imcore.message.conversation;

import io.imcore.common.api.ApiException;
import io.imcore.common.api.ErrorCode;
import io.imcore.common.context.IdentityDirectory;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Map;

/** The app's users that messages and groups may name, as the auth view knows them ({@link IdentityDirectory}). */
@ApplicationScoped
public class AppUsers {

    private final IdentityDirectory directory;

    public AppUsers(IdentityDirectory directory) {
        this.directory = directory;
    }

    /** Every id must be a user of the app, else 10000 naming the others after {@code field}; nothing is changed. */
    public void requireExisting(String appId, List<Long> ids, String field) {
        Map<Long, IdentityDirectory.UserState> known = directory.users(appId, ids);
        List<Long> missing = ids.stream().filter(id -> !known.containsKey(id)).toList();
        if (!missing.isEmpty()) {
            throw new ApiException(ErrorCode.USER_NOT_FOUND, field + ": no such user " + joinIds(missing));
        }
    }

    /** Ids for an error message: the first ten, then how many more. */
    public static String joinIds(List<Long> ids) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < ids.size() && i < 10; i++) {
            text.append(i == 0 ? "" : ", ").append(ids.get(i));
        }
        return ids.size() > 10 ? text + " and " + (ids.size() - 10) + " more" : text.toString();
    }
}
