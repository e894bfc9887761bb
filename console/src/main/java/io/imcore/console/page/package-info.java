/**
 * What every page of the console stands on: the signed-in session kept server side ({@link
 * io.imcore.console.page.ConsoleSession}, {@link io.imcore.console.page.SessionStore}), the guard each page calls
 * first ({@link io.imcore.console.page.SessionGuard}), given with the backend client to the page classes that call the
 * services by their base ({@link io.imcore.console.page.ServicePages}), the layout's data and redirects ({@link
 * io.imcore.console.page.Pages}), a form's errors per field ({@link io.imcore.console.page.FormErrors}) and the
 * page's language with the texts of every page ({@link io.imcore.console.page.Language}, {@link
 * io.imcore.console.page.ConsoleMessages}). They sit together because they use one another (the guard redirects with
 * Pages, Pages puts the session in the layout); the page packages use this one and the backend client, never the
 * reverse.
 */
package io.imcore.console.page;
