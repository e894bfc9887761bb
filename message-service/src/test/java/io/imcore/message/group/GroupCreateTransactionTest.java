package io.imcore.message.group;

import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.imcore.common.store.Database;
import io.imcore.message.MessageApi;
import io.imcore.testing.InfrastructureResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Group creation writes the conversation and its members by plain SQL (ConversationStore, through
 * Database.inTransaction, which joins the transaction) and the group through Panache (GroupStore): one transaction,
 * so a failure after the group row and the owner's member row were written leaves none of them.
 */
@QuarkusTest
@QuarkusTestResource(InfrastructureResource.class)
class GroupCreateTransactionTest {

    @Inject
    Database database;

    @AfterEach
    void liftRefusal() {
        execute("drop trigger if exists refuse_member on conversation_members");
        execute("drop function if exists refuse_member()");
    }

    @Test
    void aFailureOnALaterMemberRollsBackTheGroupAndEveryMember() {
        MessageApi api = MessageApi.newApp(database);
        long owner = api.newUser();
        long member = api.newUser();
        long refused = api.newUser();
        // raises while inserting the refused user: after the group row (persistAndFlush), the owner's member row
        // and the other member's row of the same statement are written
        execute("create or replace function refuse_member() returns trigger language plpgsql as $$ begin"
                + " if new.user_id = " + refused + " then raise exception 'member refused by the test'; end if;"
                + " return new; end $$");
        execute("create trigger refuse_member before insert on conversation_members"
                + " for each row execute function refuse_member()");

        api.as(owner).body(group(List.of(member, refused))).post("/group/create").then().statusCode(200)
                .body("code", not(equalTo(200)));
        assertEquals(0, count("select count(*) from groups where app_id = ?", api.appId), "no group row");
        assertEquals(0, count("select count(*) from conversation_members where app_id = ?", api.appId),
                "no member row, not even the owner's");
        assertEquals(0, count("select count(*) from conversations where app_id = ?", api.appId),
                "no conversation row");

        // the same request is valid once the refusal is lifted, and the counts above see its rows
        liftRefusal();
        api.as(owner).body(group(List.of(member, refused))).post("/group/create").then().statusCode(200)
                .body("code", equalTo(200));
        assertEquals(1, count("select count(*) from groups where app_id = ?", api.appId));
        assertEquals(3, count("select count(*) from conversation_members where app_id = ?", api.appId));
    }

    private static Map<String, Object> group(List<Long> members) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("name", "rolled back");
        body.put("user_list", members);
        return body;
    }

    private void execute(String sql) {
        database.autoCommit(c -> {
            try (Statement statement = c.createStatement()) {
                return statement.execute(sql);
            }
        });
    }

    private long count(String sql, String appId) {
        return database.read(c -> {
            try (PreparedStatement ps = c.prepareStatement(sql)) {
                ps.setString(1, appId);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    return rs.getLong(1);
                }
            }
        });
    }
}
