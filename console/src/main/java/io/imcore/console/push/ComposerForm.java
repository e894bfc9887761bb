package io.imcore.console.push;

import io.imcore.console.page.Pages;
import jakarta.ws.rs.FormParam;
import java.util.LinkedHashMap;
import java.util.Map;

/** The composer's fields, as its three actions (count, preview, send) receive them. */
public class ComposerForm {

    @FormParam("csrf")
    public String csrf;
    @FormParam("audience_kind")
    public String audienceKind;
    @FormParam("audience_values")
    public String audienceValues;
    @FormParam("type")
    public String type;
    @FormParam("title")
    public String title;
    @FormParam("body")
    public String body;
    @FormParam("extras")
    public String extras;
    @FormParam("strategy")
    public String strategy;
    @FormParam("sequence")
    public String sequence;
    @FormParam("show_begin")
    public String showBegin;
    @FormParam("request_id")
    public String requestId;
    /** "yes" on the second submit of a push to all, from the confirmation's button. */
    @FormParam("confirm")
    public String confirm;

    /** The values by field name, for the page to show again; title and body keep their spaces. */
    Map<String, String> values() {
        Map<String, String> form = new LinkedHashMap<>();
        form.put("audience_kind", Pages.text(audienceKind));
        form.put("audience_values", Pages.text(audienceValues));
        form.put("type", Pages.text(type));
        form.put("title", title == null ? "" : title);
        form.put("body", body == null ? "" : body);
        form.put("extras", Pages.text(extras));
        form.put("strategy", Pages.text(strategy));
        form.put("sequence", Pages.text(sequence));
        form.put("show_begin", Pages.text(showBegin));
        form.put("request_id", Pages.text(requestId));
        return form;
    }
}
