package io.imcore.push.task;

/**
 * Where a task came from (push_tasks.sent_via, admin_token_version): the console or the API, and the version of the
 * admin token used. Only an admin token can push, and the console pushes with the same token as an API caller, so
 * {@code via} is what the caller's User-Agent says, a label for the report rather than a proof.
 *
 * @param via               {@link #CONSOLE} or {@link #API}
 * @param adminTokenVersion the admin token's {@code tv} claim: the app's admin_token_version when it was issued
 */
public record TaskOrigin(String via, int adminTokenVersion) {

    public static final String CONSOLE = "console";
    public static final String API = "api";
    /** How the console's BackendClient names itself. */
    static final String CONSOLE_AGENT = "imcore-console";

    static TaskOrigin of(String userAgent, int adminTokenVersion) {
        return new TaskOrigin(userAgent != null && userAgent.startsWith(CONSOLE_AGENT) ? CONSOLE : API,
                adminTokenVersion);
    }
}
