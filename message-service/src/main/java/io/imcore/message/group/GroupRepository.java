package io.imcore.message.group;

import io.quarkus.hibernate.orm.panache.PanacheRepositoryBase;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.LockModeType;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.List;
import java.util.Optional;

@ApplicationScoped
public class GroupRepository implements PanacheRepositoryBase<Group, Group.Key> {

    /**
     * Group ids come from their own sequence, from 10^12 up (users and groups share one id space). Plain JDBC on the
     * session's connection: Hibernate 7.4's plan cache never finds a native query with a result class again, so each
     * call added one more entry and walked all the others (docs/benchmarks.md, "What the ORM's reads cost").
     */
    public long nextGroupId() {
        return getSession().doReturningWork(c -> {
            try (PreparedStatement ps = c.prepareStatement("select nextval('group_ids')");
                    ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        });
    }

    public Optional<Group> find(String appId, long groupId) {
        return find("appId = ?1 and groupId = ?2", appId, groupId).firstResultOptional();
    }

    /** Like {@link #find} but locks the group row: membership changes of one group run one at a time. */
    public Optional<Group> lock(String appId, long groupId) {
        return find("appId = ?1 and groupId = ?2", appId, groupId)
                .withLock(LockModeType.PESSIMISTIC_WRITE).firstResultOptional();
    }

    /** The live groups the user is a member of, most recently joined first (index conversation_members_by_user). */
    public List<Group> joined(String appId, long userId) {
        return find("select g from Group g join GroupMembership m on m.conversationId = g.conversationId"
                + " where m.appId = ?2 and m.userId = ?1 and g.appId = ?2 and g.destroyedAt is null"
                + " order by m.joinedAt desc, g.groupId desc", userId, appId).list();
    }
}
