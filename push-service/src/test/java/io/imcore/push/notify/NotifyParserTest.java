package io.imcore.push.notify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.imcore.common.api.ApiException;
import io.imcore.common.api.ErrorCode;
import io.imcore.common.api.JsonConfig;
import io.imcore.pushcontract.Channel;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class NotifyParserTest {

    private static final ObjectMapper MAPPER = JsonConfig.apply(new ObjectMapper());
    /** 2030-01-01T00:00:00Z, the parser's "now". */
    private static final long NOW = 1_893_456_000L;

    private final NotifyParser parser = new NotifyParser(Clock.fixed(Instant.ofEpochSecond(NOW), ZoneOffset.UTC));

    // --- the three common body shapes of api.md 4.5.2 ---

    @Test
    void textToAllDevices() {
        PushRequest request = parser.parse(json(
                "{'audience':'all','message':{'type':'text','title':'Hello','body':'World'}}"));
        assertEquals(Audience.all(), request.audience());
        assertNull(request.requestId());
        assertEquals(Strategy.COMBINED, request.strategy());
        assertEquals(List.of(Channel.HUAWEI, Channel.XIAOMI, Channel.OPPO, Channel.VIVO, Channel.MEIZU,
                Channel.FCM), request.osSequence(), "default [ups, cloud], expanded");
        assertJson("{'type':'text','title':'Hello','body':'World','badge':'+1','channels':{}}", request.message());
        assertNull(request.showBeginTime());
        assertNull(request.showEndTime());
        assertNull(request.attachmentUrl());
    }

    @Test
    void imageToPushTokens() {
        PushRequest request = parser.parse(json("{'audience':{'push_token':['t1','t2','t1']},"
                + "'setting':{'request_id':'r-1','distribution_strategy':'ospush_only',"
                + "'ospush_sequence':['cloud','ups','vendor_b']},"
                + "'message':{'type':'image','title':'T','body':'B','attachment_url':'https://cdn.example/a/b.PNG?v=2',"
                + "'badge':'+2'}}"));
        assertEquals(new Audience(Audience.Form.PUSH_TOKEN, List.of("t1", "t2"), List.of()), request.audience());
        assertEquals("r-1", request.requestId());
        assertEquals(Strategy.OSPUSH_ONLY, request.strategy());
        assertEquals(List.of(Channel.FCM, Channel.HUAWEI, Channel.XIAOMI, Channel.OPPO, Channel.VIVO,
                Channel.MEIZU), request.osSequence());
        assertEquals("https://cdn.example/a/b.PNG?v=2", request.attachmentUrl());
        assertJson("{'type':'image','title':'T','body':'B','badge':'+2',"
                + "'attachment_url':'https://cdn.example/a/b.PNG?v=2','channels':{}}", request.message());
    }

    @Test
    void passThroughToTags() {
        PushRequest request = parser.parse(json("{'audience':{'tag':['b','a','b']},'setting':{},"
                + "'message':{'type':'cmd','title':'T','body':'B','ext':{'k':[1,{'x':null}],'n':'v'},'unknown':1}}"));
        assertEquals(new Audience(Audience.Form.TAG, List.of("b", "a"), List.of()), request.audience());
        assertJson("{'type':'cmd','title':'T','body':'B','badge':'+1','ext':{'k':[1,{'x':null}],'n':'v'},"
                + "'channels':{}}", request.message());
    }

    // --- top level ---

    static Stream<Arguments> badBodies() {
        return Stream.of(
                arguments("body", json("[]")),
                arguments("body", MAPPER.getNodeFactory().textNode("x")),
                arguments("body", null),
                arguments("audience", json("{'message':{}}")),
                arguments("audience", json("{'audience':null,'message':{}}")),
                arguments("message", json("{'audience':'all'}")),
                arguments("message", json("{'audience':'all','message':null}")),
                arguments("message", json("{'audience':'all','message':'hi'}")),
                arguments("setting", json("{'audience':'all','setting':[],'message':{}}")));
    }

    @ParameterizedTest(name = "{0} <- {1}")
    @MethodSource("badBodies")
    void rejectsBadBodies(String field, JsonNode body) {
        assertRejected(ErrorCode.BAD_PARAMETER, field, body);
    }

    @Test
    void settingMayBeAbsentNullOrEmptyAndUnknownFieldsAreIgnored() {
        for (String setting : List.of("", ",'setting':null", ",'setting':{}", ",'setting':{'other':1}")) {
            PushRequest request = parser.parse(json("{'audience':'all','x':[1]" + setting + ",'message':{}}"));
            assertEquals(Strategy.COMBINED, request.strategy());
            assertEquals(NotifyParser.DEFAULT_SEQUENCE, request.osSequence());
        }
    }

    // --- audience ---

    static Stream<Arguments> badAudiences() {
        return Stream.of(
                arguments("audience", "''"),
                arguments("audience", "'ALL'"),
                arguments("audience", "'tag'"),
                arguments("audience", "1"),
                arguments("audience", "true"),
                arguments("audience", "['all']"),
                arguments("audience", "{}"),
                arguments("audience", "{'tag':['a'],'alias':['b']}"),
                arguments("audience.group", "{'group':['a']}"),
                arguments("audience.tag", "{'tag':[]}"),
                arguments("audience.tag", "{'tag':'a'}"),
                arguments("audience.tag", "{'tag':null}"),
                arguments("audience.alias", "{'alias':{}}"),
                arguments("audience.tag[1]", "{'tag':['a',1]}"),
                arguments("audience.tag[0]", "{'tag':['']}"),
                arguments("audience.tag[0]", "{'tag':[null]}"),
                arguments("audience.tag[0]", "{'tag':['" + "t".repeat(129) + "']}"),
                arguments("audience.tag[0]", "{'tag':['a\\u0000']}"),
                arguments("audience.alias[0]", "{'alias':[true]}"),
                arguments("audience.push_token[0]", "{'push_token':[['t']]}"),
                arguments("audience.user_id[0]", "{'user_id':['12']}"),
                arguments("audience.user_id[0]", "{'user_id':[1.5]}"),
                arguments("audience.user_id[0]", "{'user_id':[1.0]}"),
                arguments("audience.user_id[0]", "{'user_id':[0]}"),
                arguments("audience.user_id[1]", "{'user_id':[1,-3]}"),
                arguments("audience.user_id[0]", "{'user_id':[18446744073709551616]}"));
    }

    @ParameterizedTest(name = "{0} <- {1}")
    @MethodSource("badAudiences")
    void rejectsBadAudiences(String field, String audience) {
        assertRejected(ErrorCode.BAD_PARAMETER, field, withAudience(audience));
    }

    @Test
    void audienceListsOver500Are12005() {
        assertRejected(ErrorCode.PUSH_TOO_MANY_TARGETS, "audience.tag",
                withAudience("{'tag':" + stringList(501) + "}"));
        assertRejected(ErrorCode.PUSH_TOO_MANY_TARGETS, "audience.user_id",
                withAudience("{'user_id':" + IntStream.rangeClosed(1, 501).boxed().toList() + "}"));
        assertEquals(500, parser.parse(withAudience("{'alias':" + stringList(500) + "}")).audience().values().size());
    }

    @Test
    void audienceListsDropDuplicatesKeepingOrder() {
        assertEquals(new Audience(Audience.Form.USER_ID, List.of(), List.of(3L, 1L, 9_007_199_254_740_993L)),
                parser.parse(withAudience("{'user_id':[3,1,3,9007199254740993]}")).audience());
        assertEquals(new Audience(Audience.Form.ALIAS, List.of("x", "t".repeat(128)), List.of()),
                parser.parse(withAudience("{'alias':['x','" + "t".repeat(128) + "','x']}")).audience());
        assertEquals(Audience.Form.PUSH_TOKEN, parser.parse(withAudience("{'push_token':['p']}")).audience().form());
    }

    // --- setting ---

    static Stream<Arguments> badSettings() {
        return Stream.of(
                arguments("setting.request_id", "{'request_id':12}"),
                arguments("setting.request_id", "{'request_id':'" + "r".repeat(129) + "'}"),
                arguments("setting.request_id", "{'request_id':'r\\u0000'}"),
                arguments("setting.distribution_strategy", "{'distribution_strategy':'COMBINED'}"),
                arguments("setting.distribution_strategy", "{'distribution_strategy':'svcpush'}"),
                arguments("setting.distribution_strategy", "{'distribution_strategy':1}"),
                arguments("setting.ospush_sequence", "{'ospush_sequence':[]}"),
                arguments("setting.ospush_sequence", "{'ospush_sequence':'ups'}"),
                arguments("setting.ospush_sequence[0]", "{'ospush_sequence':['ios']}"),
                arguments("setting.ospush_sequence[1]", "{'ospush_sequence':['ups','svcpush']}"),
                arguments("setting.ospush_sequence[0]", "{'ospush_sequence':['UPS']}"),
                arguments("setting.ospush_sequence[0]", "{'ospush_sequence':[1]}"),
                arguments("setting.ospush_sequence[0]", "{'ospush_sequence':[null]}"));
    }

    @ParameterizedTest(name = "{0} <- {1}")
    @MethodSource("badSettings")
    void rejectsBadSettings(String field, String setting) {
        assertRejected(ErrorCode.BAD_PARAMETER, field, withSetting(setting));
    }

    @Test
    void normalizesSettings() {
        assertNull(parser.parse(withSetting("{'request_id':''}")).requestId(), "empty: no de-duplication");
        assertEquals("r".repeat(128), parser.parse(withSetting("{'request_id':'" + "r".repeat(128) + "'}")).requestId());
        assertEquals(Strategy.COMBINED, parser.parse(withSetting("{'distribution_strategy':''}")).strategy());
        assertEquals(Strategy.SVCPUSH_ONLY,
                parser.parse(withSetting("{'distribution_strategy':'svcpush_only'}")).strategy());
        assertEquals(List.of(Channel.OPPO, Channel.HUAWEI, Channel.XIAOMI, Channel.VIVO, Channel.MEIZU,
                        Channel.FCM),
                parser.parse(withSetting("{'ospush_sequence':['vendor_c','ups','cloud','cloud','vendor_a']}"))
                        .osSequence());
        assertEquals(List.of(Channel.MEIZU),
                parser.parse(withSetting("{'ospush_sequence':['vendor_e']}")).osSequence());
    }

    // --- message ---

    static Stream<Arguments> badMessages() {
        return Stream.of(
                arguments("message.type", "{'type':'video'}"),
                arguments("message.type", "{'type':'TEXT'}"),
                arguments("message.type", "{'type':1}"),
                arguments("message.title", "{'title':12}"),
                arguments("message.title", "{'title':'" + "t".repeat(257) + "'}"),
                arguments("message.title", "{'title':'a\\u0000'}"),
                arguments("message.body", "{'body':true}"),
                arguments("message.body", "{'body':'" + "b".repeat(4001) + "'}"),
                arguments("message.big_text", "{'big_text':'" + "b".repeat(4001) + "'}"),
                arguments("message.big_text", "{'big_text':{}}"),
                arguments("message.badge", "{'badge':5}"),
                arguments("message.badge", "{'badge':'+0'}"),
                arguments("message.badge", "{'badge':'100000'}"),
                arguments("message.badge", "{'badge':'+100000'}"),
                arguments("message.badge", "{'badge':'-1'}"),
                arguments("message.badge", "{'badge':'+'}"),
                arguments("message.badge", "{'badge':' 5'}"),
                arguments("message.badge", "{'badge':'1.5'}"),
                arguments("message.badge", "{'badge':'abc'}"),
                arguments("message.ext", "{'ext':[]}"),
                arguments("message.ext", "{'ext':'{}'}"),
                arguments("message.ext", "{'ext':{'k':'" + "x".repeat(4089) + "'}}"),
                arguments("message.ext.a.b[1]", "{'ext':{'a':{'b':[1,'\\u0000']}}}"),
                arguments("message.ext.a\u0000", "{'ext':{'a\\u0000':1}}"),
                arguments("message.attachment_url", "{'type':'image'}"),
                arguments("message.attachment_url", "{'type':'image','attachment_url':''}"),
                arguments("message.attachment_url", "{'type':'image','attachment_url':'http://h/a.gif'}"),
                arguments("message.attachment_url", "{'type':'image','attachment_url':'http://h/a.gif?f=.png'}"),
                arguments("message.attachment_url", "{'type':'image','attachment_url':'http://h/a.gif#.png'}"),
                arguments("message.attachment_url", "{'type':'image','attachment_url':'http://h/png'}"),
                arguments("message.attachment_url", "{'type':'image','attachment_url':'ftp://h/a.png'}"),
                arguments("message.attachment_url", "{'type':'image','attachment_url':'/a.png'}"),
                arguments("message.attachment_url", "{'type':'image','attachment_url':'http:///a.png'}"),
                arguments("message.attachment_url", "{'type':'image','attachment_url':'http://h/a b.png'}"),
                arguments("message.attachment_url", "{'type':'image','attachment_url':'http://h:65536/a.png'}"),
                arguments("message.attachment_url", "{'type':'text','attachment_url':'file:///a.mp4'}"),
                arguments("message.attachment_url", "{'type':'cmd','attachment_url':'not a url'}"),
                arguments("message.attachment_url", "{'attachment_url':1}"),
                arguments("message.show_begin_time", "{'show_begin_time':'1893456000'}"),
                arguments("message.show_begin_time", "{'show_begin_time':1.5}"),
                arguments("message.show_begin_time", "{'show_begin_time':-1}"),
                arguments("message.show_begin_time", "{'show_begin_time':1893456000000}"),
                arguments("message.show_end_time", "{'show_end_time':true}"),
                arguments("message.show_end_time", "{'show_end_time':" + NOW + "}"),
                arguments("message.show_end_time", "{'show_end_time':" + (NOW - 60) + "}"),
                arguments("message.show_end_time",
                        "{'show_begin_time':" + (NOW + 100) + ",'show_end_time':" + (NOW + 100) + "}"),
                arguments("message.show_end_time",
                        "{'show_begin_time':" + (NOW + 100) + ",'show_end_time':" + (NOW + 50) + "}"));
    }

    @ParameterizedTest(name = "{0} <- {1}")
    @MethodSource("badMessages")
    void rejectsBadMessages(String field, String message) {
        assertRejected(ErrorCode.BAD_PARAMETER, field, withMessage(message));
    }

    @Test
    void fillsMessageDefaultsAndDropsWhatIsNotSet() {
        assertJson("{'type':'text','title':'','body':'','badge':'+1','channels':{}}",
                parser.parse(withMessage("{'type':'','title':null,'big_text':'','badge':'','ext':{},'ios':{},"
                        + "'attachment_url':'','show_begin_time':null,'android':{'sound':''}}")).message());
    }

    @Test
    void limitsCountCharactersNotUtf16Units() {
        String title = "\uD83D\uDE00".repeat(256);
        assertEquals(title, parser.parse(withMessage("{'title':'" + title + "'}")).message().get("title").textValue());
        String body = "b".repeat(4000);
        JsonNode message = parser.parse(withMessage("{'body':'" + body + "','big_text':'" + body + "'}")).message();
        assertEquals(body, message.get("body").textValue());
        assertEquals(body, message.get("big_text").textValue());
    }

    @Test
    void normalizesBadges() {
        for (String[] badge : new String[][] {
                {"5", "5"}, {"0", "0"}, {"007", "7"}, {"00000", "0"}, {"99999", "99999"}, {"+1", "+1"},
                {"+3", "+3"}, {"+0099999", "+99999"}}) {
            assertEquals(badge[1], parser.parse(withMessage("{'badge':'" + badge[0] + "'}")).message()
                    .get("badge").textValue(), badge[0]);
        }
    }

    @Test
    void extUpTo4096BytesIsKept() {
        String ext = "{'k':'" + "x".repeat(4088) + "'}";
        assertEquals(4096, json(ext).toString().length());
        assertEquals(json(ext), parser.parse(withMessage("{'ext':" + ext + "}")).message().get("ext"));
    }

    @Test
    void onlyAnImageAttachmentIsFetched() {
        PushRequest image = parser.parse(withMessage("{'type':'image','attachment_url':'HTTP://h:8080/x.Jpeg#top'}"));
        assertEquals("HTTP://h:8080/x.Jpeg#top", image.attachmentUrl());
        for (String type : List.of("text", "cmd")) {
            PushRequest video = parser.parse(withMessage(
                    "{'type':'" + type + "','attachment_url':'https://h/clip.mp4'}"));
            assertNull(video.attachmentUrl(), "not an image: nothing to fetch");
            assertEquals("https://h/clip.mp4", video.message().get("attachment_url").textValue());
        }
    }

    @Test
    void keepsShowTimes() {
        PushRequest past = parser.parse(withMessage("{'show_begin_time':1000}"));
        assertEquals(1000L, past.showBeginTime(), "a begin time in the past means now: kept as given");
        assertNull(past.showEndTime());
        PushRequest window = parser.parse(withMessage(
                "{'show_begin_time':" + (NOW + 10) + ",'show_end_time':" + (NOW + 11) + "}"));
        assertEquals(NOW + 10, window.showBeginTime());
        assertEquals(NOW + 11, window.showEndTime());
        assertEquals(NOW + 10, window.message().get("show_begin_time").longValue());
        assertEquals(NOW + 11, window.message().get("show_end_time").longValue());
        assertEquals(NOW + 1, parser.parse(withMessage("{'show_end_time':" + (NOW + 1) + "}")).showEndTime());
    }

    // --- ios ---

    static Stream<Arguments> badIos() {
        return Stream.of(
                arguments("message.ios", "'x'"),
                arguments("message.ios.sound", "{'sound':1}"),
                arguments("message.ios.sound", "{'sound':'\\u0000'}"),
                arguments("message.ios.content_available", "{'content_available':'true'}"),
                arguments("message.ios.content_available", "{'content_available':1}"),
                arguments("message.ios.mutable_content", "{'mutable_content':0}"),
                arguments("message.ios.category", "{'category':[]}"),
                arguments("message.ios.thread_id", "{'thread_id':7}"),
                arguments("message.ios.subtitle", "{'subtitle':false}"),
                arguments("message.ios.ios_collapse_id", "{'ios_collapse_id':1}"),
                arguments("message.ios.ios_collapse_id", "{'ios_collapse_id':'" + "c".repeat(65) + "'}"),
                arguments("message.ios.ios_collapse_id", "{'ios_collapse_id':'" + "\u00e9".repeat(33) + "'}"));
    }

    @ParameterizedTest(name = "{0} <- {1}")
    @MethodSource("badIos")
    void rejectsBadIos(String field, String ios) {
        assertRejected(ErrorCode.BAD_PARAMETER, field, withMessage("{'ios':" + ios + "}"));
    }

    @Test
    void keepsIosSettings() {
        String ios = "{'sound':'ding','content_available':true,'mutable_content':false,'category':'c',"
                + "'thread_id':'t','subtitle':'s','ios_collapse_id':'" + "\u00e9".repeat(32) + "'}";
        assertEquals(json(ios), parser.parse(withMessage("{'ios':" + ios + "}")).message().get("ios"));
        assertEquals(json("{'thread_id':'t'}"),
                parser.parse(withMessage("{'ios':{'sound':'','thread_id':'t','other':1}}")).message().get("ios"));
    }

    // --- android and the per-channel objects ---

    static Stream<Arguments> badPlatformSettings() {
        return Stream.of(
                arguments("message.android", "{'android':[]}"),
                arguments("message.cloud", "{'cloud':'x'}"),
                arguments("message.android.sound", "{'android':{'sound':1}}"),
                arguments("message.vendor_a.sound", "{'vendor_a':{'sound':'\\u0000'}}"),
                arguments("message.android.channel_id", "{'android':{'channel_id':2}}"),
                arguments("message.android.click_action", "{'android':{'click_action':'open'}}"),
                arguments("message.vendor_b.click_action", "{'vendor_b':{'click_action':1}}"),
                arguments("message.android.intent", "{'android':{'intent':5}}"),
                arguments("message.android.intent", "{'android':{'click_action':'intent','intent':'com.app.Main'}}"),
                arguments("message.vendor_c.intent", "{'vendor_c':{'intent':'/.Main'}}"),
                arguments("message.vendor_e.intent", "{'vendor_e':{'intent':'com.app/'}}"),
                arguments("message.android.intent", "{'android':{'click_action':'intent'}}"),
                arguments("message.android.intent", "{'android':{'click_action':'intent','intent':''}}"),
                arguments("message.vendor_c.intent", "{'vendor_c':{'click_action':'intent'}}"),
                // OPPO has its own intent, the other five channels have none
                arguments("message.android.intent",
                        "{'android':{'click_action':'intent'},'vendor_c':{'intent':'p/.A'}}"),
                arguments("message.vendor_a.badge_class", "{'vendor_a':{'badge_class':5}}"),
                arguments("message.vendor_d.push_mode", "{'vendor_d':{'push_mode':2}}"),
                arguments("message.vendor_d.push_mode", "{'vendor_d':{'push_mode':'1'}}"),
                arguments("message.vendor_d.push_mode", "{'vendor_d':{'push_mode':true}}"),
                arguments("message.vendor_d.classification", "{'vendor_d':{'classification':1.0}}"),
                arguments("message.vendor_d.classification", "{'vendor_d':{'classification':-1}}"));
    }

    @ParameterizedTest(name = "{0} <- {1}")
    @MethodSource("badPlatformSettings")
    void rejectsBadPlatformSettings(String field, String message) {
        assertRejected(ErrorCode.BAD_PARAMETER, field, withMessage(message));
    }

    @Test
    void mergesAndroidIntoEachChannel() {
        JsonNode channels = parser.parse(withMessage("{'android':{'sound':'s','channel_id':'c','badge_class':'no',"
                + "'push_mode':1},'vendor_a':{'sound':'s2','badge_class':'com.app.Launcher'},"
                + "'vendor_d':{'classification':1},'cloud':{'channel_id':'','other':1}}")).message().get("channels");
        assertJson("{'cloud':{'sound':'s','channel_id':'c'},"
                + "'vendor_a':{'sound':'s2','channel_id':'c','badge_class':'com.app.Launcher'},"
                + "'vendor_b':{'sound':'s','channel_id':'c'},"
                + "'vendor_c':{'sound':'s','channel_id':'c'},"
                + "'vendor_d':{'sound':'s','channel_id':'c','push_mode':0,'classification':1},"
                + "'vendor_e':{'sound':'s','channel_id':'c'}}", channels);
    }

    @Test
    void leavesOutChannelsWithNothingSet() {
        assertJson("{'vendor_d':{'push_mode':1}}", parser.parse(withMessage(
                "{'vendor_d':{'push_mode':1},'vendor_b':{}}")).message().get("channels"));
        assertJson("{'vendor_b':{'click_action':'open_app'}}", parser.parse(withMessage(
                "{'vendor_b':{'click_action':'open_app','intent':'p/.A'},'cloud':{'intent':'p/.B'}}"))
                .message().get("channels"), "an intent without click_action intent is not used");
    }

    @Test
    void appliesTheIntentRuleToEffectiveValues() {
        JsonNode channels = parser.parse(withMessage("{'android':{'click_action':'intent','intent':'com.app/.Main'},"
                + "'vendor_b':{'click_action':'intent'},'vendor_c':{'intent':'com.app/.Other;S.k=v'},"
                + "'cloud':{'click_action':'open_app'}}")).message().get("channels");
        assertEquals("com.app/.Main", channels.get("vendor_b").get("intent").textValue());
        assertEquals("com.app/.Other;S.k=v", channels.get("vendor_c").get("intent").textValue());
        assertEquals("intent", channels.get("vendor_c").get("click_action").textValue());
        assertJson("{'click_action':'open_app'}", channels.get("cloud"));

        String everyChannelHasItsIntent = MessageParser.ANDROID_CHANNELS.stream()
                .map(channel -> "'" + channel.wireName() + "':{'intent':'p/." + channel.wireName() + "'}")
                .collect(Collectors.joining(","));
        channels = parser.parse(withMessage("{'android':{'click_action':'intent'}," + everyChannelHasItsIntent + "}"))
                .message().get("channels");
        assertJson("{'click_action':'intent','intent':'p/.cloud'}", channels.get("cloud"));
        assertJson("{'click_action':'intent','intent':'p/.vendor_e'}", channels.get("vendor_e"));
    }

    // --- message options: categories and the like (MessageOptions) ---

    static Stream<Arguments> badMessageOptions() {
        return Stream.of(
                arguments("message.vendor_a.category", "{'vendor_a':{'category':'im'}}"),
                arguments("message.vendor_a.category", "{'vendor_a':{'category':'ORDER'}}"),
                arguments("message.vendor_a.category", "{'vendor_a':{'category':5}}"),
                arguments("message.vendor_a.category", "{'vendor_a':{'category':'PLAY_VOICE'}}"),
                arguments("message.vendor_a.category", "{'type':'image','attachment_url':'https://x.example/a.png',"
                        + "'vendor_a':{'category':'PLAY_VOICE'}}"),
                arguments("message.vendor_c.category", "{'vendor_c':{'category':'VOIP'}}"),
                arguments("message.vendor_c.category", "{'vendor_c':{'category':['IM']}}"),
                arguments("message.vendor_c.notify_level", "{'vendor_c':{'notify_level':3}}"),
                arguments("message.vendor_c.notify_level", "{'vendor_c':{'notify_level':'2'}}"),
                arguments("message.vendor_c.notify_level", "{'vendor_c':{'notify_level':2.0}}"),
                arguments("message.vendor_c.notify_level", "{'vendor_c':{'notify_level':4294967312}}"),
                arguments("message.vendor_d.category", "{'vendor_d':{'category':'VOIP'}}"),
                arguments("message.vendor_d.category", "{'vendor_d':{'category':'IM','classification':0}}"),
                arguments("message.vendor_d.category", "{'vendor_d':{'category':'NEWS','classification':1}}"),
                arguments("message.vendor_d.classification", "{'vendor_d':{'category':'IM','classification':2}}"),
                arguments("message.vendor_e.notice_msg_type", "{'vendor_e':{'notice_msg_type':2}}"),
                arguments("message.vendor_e.notice_msg_type", "{'vendor_e':{'notice_msg_type':'1'}}"),
                arguments("message.vendor_e.notice_msg_type", "{'vendor_e':{'notice_msg_type':true}}"));
    }

    @ParameterizedTest(name = "{0} <- {1}")
    @MethodSource("badMessageOptions")
    void rejectsMessageOptionsTheProviderRefuses(String field, String message) {
        assertRejected(ErrorCode.BAD_PARAMETER, field, withMessage(message));
    }

    @Test
    void keepsEachChannelsOwnMessageOptionsAndInheritsNoneFromAndroid() {
        JsonNode channels = parser.parse(withMessage("{'android':{'category':'IM','notify_level':2,"
                + "'notice_msg_type':1,'classification':1},"
                + "'vendor_a':{'category':'IM'},'vendor_b':{'channel_id':'mi-private','category':'IM'},"
                + "'vendor_c':{'category':'IM','notify_level':16},'vendor_d':{'category':'IM'},"
                + "'vendor_e':{'notice_msg_type':1,'category':'IM'},'cloud':{'category':'IM'}}"))
                .message().get("channels");
        assertJson("{'vendor_a':{'category':'IM'},'vendor_b':{'channel_id':'mi-private'},"
                + "'vendor_c':{'category':'IM','notify_level':16},"
                + "'vendor_d':{'category':'IM','classification':1,'push_mode':0},"
                + "'vendor_e':{'notice_msg_type':1}}", channels);
    }

    @Test
    void aVivoCategoryBringsItsClassification() {
        JsonNode operational = parser.parse(withMessage("{'vendor_d':{'category':'NEWS'}}")).message()
                .get("channels").get("vendor_d");
        assertJson("{'category':'NEWS','classification':0,'push_mode':0}", operational);
        JsonNode explicit = parser.parse(withMessage("{'vendor_d':{'category':'TODO','classification':1,"
                + "'push_mode':1}}")).message().get("channels").get("vendor_d");
        assertJson("{'category':'TODO','classification':1,'push_mode':1}", explicit);
        JsonNode classificationOnly = parser.parse(withMessage("{'vendor_d':{'classification':1}}")).message()
                .get("channels").get("vendor_d");
        assertJson("{'classification':1,'push_mode':0}", classificationOnly);
    }

    @Test
    void huaweiPlayVoiceIsForPassThroughOnlyAndEmptyOptionsAreNotSet() {
        JsonNode channels = parser.parse(withMessage("{'type':'cmd','vendor_a':{'category':'PLAY_VOICE'},"
                + "'vendor_c':{'category':'','notify_level':null}}")).message().get("channels");
        assertJson("{'vendor_a':{'category':'PLAY_VOICE'}}", channels);
    }

    // --- helpers ---

    private void assertRejected(ErrorCode code, String field, JsonNode body) {
        ApiException error = assertThrows(ApiException.class, () -> parser.parse(body));
        assertEquals(code, error.errorCode(), error.getMessage());
        assertTrue(error.getMessage().startsWith(field + ": "), "names " + field + ": " + error.getMessage());
    }

    /** Compares as JSON values, whatever the key order and numeric node types. */
    private static void assertJson(String expected, JsonNode actual) {
        assertJson(expected, actual, null);
    }

    private static void assertJson(String expected, JsonNode actual, String description) {
        try {
            assertEquals(json(expected), MAPPER.readTree(actual.toString()), description);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String stringList(int size) {
        return IntStream.range(0, size).mapToObj(i -> "'v" + i + "'").collect(Collectors.joining(",", "[", "]"));
    }

    private static ObjectNode withAudience(String audience) {
        return (ObjectNode) json("{'audience':" + audience + ",'message':{}}");
    }

    private static ObjectNode withSetting(String setting) {
        return (ObjectNode) json("{'audience':'all','setting':" + setting + ",'message':{}}");
    }

    private static ObjectNode withMessage(String message) {
        return (ObjectNode) json("{'audience':'all','message':" + message + "}");
    }

    /** JSON written with single quotes for readability. */
    private static JsonNode json(String singleQuoted) {
        try {
            return MAPPER.readTree(singleQuoted.replace('\'', '"'));
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
