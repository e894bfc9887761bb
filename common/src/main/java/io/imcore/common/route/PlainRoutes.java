package io.imcore.common.route;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import io.imcore.common.api.ApiCodeMetrics;
import io.imcore.common.api.ApiResponse;
import io.imcore.common.api.CorrelationId;
import io.imcore.common.api.ExceptionMappers;
import io.imcore.common.api.Throttled;
import io.imcore.common.concurrent.NonBlockingAttempt;
import io.imcore.common.context.Access;
import io.imcore.common.context.CallerChecks;
import io.imcore.common.context.RequestContext;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.quarkus.vertx.http.runtime.RouteConstants;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.List;

/**
 * Serves a hot JSON endpoint as a plain Vert.x route instead of a JAX-RS resource, with the same contract: the
 * correlation id ({@link CorrelationId}), the caller checks of the endpoint's {@link Access} level
 * ({@link CallerChecks}), what the call takes before it runs ({@link Admission}: the quotas), the body read
 * as JSON whatever its Content-Type (empty = null, as for a resource), every failure as the envelope of
 * {@link ExceptionMappers} (10015 with Retry-After), and the envelope's code counted ({@link ApiCodeMetrics}). The
 * body's size limit is {@link io.imcore.common.api.EdgeResponses}', which runs before any route.
 * <p>
 * Why: RESTEasy Reactive's request pipeline, its CDI request context and context propagation cost about a quarter
 * of a small hot call's CPU (measured on sends, docs/benchmarks.md). A call is first served on the event loop as a
 * {@link NonBlockingAttempt}; whatever would block there (a cache miss's query, a quota take that is not leased)
 * sends it to the worker pool, where it runs as a blocking resource method's would (the share served on the event
 * loop: {@code imcore_http_plain_calls_total}, docs/benchmarks.md). A handler that answers with a
 * {@link CompletionStage} frees its thread at once, and the event loop writes the answer when it completes.
 */
@ApplicationScoped
public class PlainRoutes {

    /**
     * What the endpoint does for a checked caller; {@code body} is null when the request had none. It returns the
     * envelope's data, or a {@link CompletionStage} of it: the call is then answered when that completes, and
     * holds no worker thread meanwhile. It may run twice for one call: first on the event loop, where whatever
     * would block throws {@link NonBlockingAttempt.WouldBlock}, then on a worker thread; it must change nothing
     * before the last point where it may block.
     */
    @FunctionalInterface
    public interface Handler<B> {
        Object handle(RequestContext caller, B body);
    }

    /**
     * One thing a checked call takes before its handler runs (say, from a quota whose metrics name the route
     * {@code path}). It either completes or throws {@link NonBlockingAttempt.WouldBlock} before it changed anything,
     * so a call moved to a worker takes only what it has not taken yet.
     */
    @FunctionalInterface
    public interface Admission<B> {
        void take(String path, RequestContext caller, B body);
    }

    /** One served endpoint: what each of its calls needs. {@code handlerTime} null for none. */
    private record Endpoint<B>(String path, Access.Level level, List<Admission<B>> admissions, ObjectReader reader,
            Handler<B> handler, Timer handlerTime, Counter onEventLoop, Counter onWorker) {}

    /** The envelope as JSON, and what goes beside it. */
    private record Answer(byte[] json, int code, String correlationId, Long retryAfterSeconds) {}

    private static final String JSON_TYPE = "application/json;charset=UTF-8";

    private final Vertx vertx;
    private final ObjectMapper mapper;
    private final CallerChecks checks;
    private final MeterRegistry registry;

    public PlainRoutes(Vertx vertx, ObjectMapper mapper, CallerChecks checks, MeterRegistry registry) {
        this.vertx = vertx;
        this.mapper = mapper;
        this.checks = checks;
        this.registry = registry;
    }

    /**
     * Serves {@code path} for each of {@code methods}, ahead of the JAX-RS resources. {@code admissions}: what a call
     * takes before its handler runs, in this order. {@code handlerTime}:
     * records each call's handler, from its start to its answer or refusal (a run that would have blocked is not
     * recorded: its call is, where it is served), or null for none.
     */
    public <B> void serve(Router router, String path, Access.Level level, List<Admission<B>> admissions, Class<B> bodyType,
            Handler<B> handler, Timer handlerTime, HttpMethod... methods) {
        Endpoint<B> endpoint = new Endpoint<>(path, level, List.copyOf(admissions), mapper.readerFor(bodyType), handler, handlerTime,
                servedOn(path, "event_loop"), servedOn(path, "worker"));
        for (HttpMethod method : methods) {
            router.route(method, path).order(RouteConstants.ROUTE_ORDER_BEFORE_DEFAULT).handler(ctx -> {
                // a chunked body was read already (EdgeResponses, up to the size limit)
                Buffer read = ctx.body() == null ? null : ctx.body().buffer();
                if (read != null) {
                    dispatch(ctx, read, endpoint);
                    return;
                }
                Future<Buffer> body = ctx.request().body();
                // Quarkus pauses a request until a handler asks for its body
                ctx.request().resume();
                body.onSuccess(b -> dispatch(ctx, b, endpoint)).onFailure(ctx::fail);
            });
        }
    }

    private Counter servedOn(String path, String thread) {
        return Counter.builder("imcore.http.plain.calls")
                .description("calls of a plain route by the thread that served them: the event loop when nothing"
                        + " had to block, else a worker")
                .tag("route", path).tag("thread", thread).register(registry);
    }

    private <B> void dispatch(RoutingContext ctx, Buffer body, Endpoint<B> endpoint) {
        Context eventLoop = vertx.getOrCreateContext();
        Call<B> call = new Call<>(ctx, body, endpoint);
        String id = CorrelationId.assign(ctx.request().getHeader(CorrelationId.HEADER));
        try {
            CompletionStage<?> result = NonBlockingAttempt.run(call::run);
            endpoint.onEventLoop().increment();
            answerWhenDone(ctx, endpoint.path(), result, eventLoop, id);
            return;
        } catch (NonBlockingAttempt.WouldBlock needsWorker) {
            // served again on a worker thread, below
        } finally {
            CorrelationId.forget();
        }
        try {
            // Quarkus' worker pool, which Quarkus makes Mutiny's default one
            Infrastructure.getDefaultWorkerPool().execute(() -> {
                CorrelationId.assign(id);
                try {
                    endpoint.onWorker().increment();
                    answerWhenDone(ctx, endpoint.path(), call.run(), eventLoop, id);
                } finally {
                    CorrelationId.forget();
                }
            });
        } catch (RejectedExecutionException shuttingDown) {
            write(ctx, endpoint.path(), answer(null, shuttingDown, id));
        }
    }

    /** The answer is written on the event loop, whichever thread completes the call. */
    private void answerWhenDone(RoutingContext ctx, String path, CompletionStage<?> result, Context eventLoop,
            String id) {
        result.whenComplete((value, failure) -> eventLoop.runOnContext(v -> write(ctx, path,
                answer(value, failure, id))));
    }

    /**
     * One call of an endpoint: served first as a {@link NonBlockingAttempt} on the event loop, then, if that would
     * block, again on a worker thread, which reuses what the attempt found and does not take from a quota twice.
     */
    private final class Call<B> {
        private final RoutingContext ctx;
        private final Buffer body;
        private final Endpoint<B> endpoint;
        private RequestContext caller;
        /** How many of the endpoint's admissions this call has taken (a worker's run goes on from there). */
        private int admitted;
        private boolean bodyRead;
        private B parsed;

        Call(RoutingContext ctx, Buffer body, Endpoint<B> endpoint) {
            this.ctx = ctx;
            this.body = body;
            this.endpoint = endpoint;
        }

        /** The call's result; whatever fails is answered (50000 at worst), never left hanging. */
        CompletionStage<?> run() {
            try {
                return call();
            } catch (NonBlockingAttempt.WouldBlock needsWorker) {
                throw needsWorker;
            } catch (Throwable e) {
                return CompletableFuture.failedFuture(e);
            }
        }

        /** Checks the caller, reads the body, takes the admissions and calls the handler. */
        private CompletionStage<?> call() throws IOException {
            if (caller == null) {
                RequestContext checked = new RequestContext();
                checks.check(endpoint.level(), ctx.request()::getHeader, checked);
                caller = checked;
            }
            if (!bodyRead) {
                parsed = body.length() == 0 ? null : endpoint.reader().readValue(body.getBytes());
                bodyRead = true;
            }
            List<Admission<B>> admissions = endpoint.admissions();
            while (admitted < admissions.size()) {
                admissions.get(admitted).take(endpoint.path(), caller, parsed);
                admitted++;
            }
            long start = System.nanoTime();
            Object result;
            try {
                result = endpoint.handler().handle(caller, parsed);
            } catch (NonBlockingAttempt.WouldBlock needsWorker) {
                throw needsWorker; // not served yet: it is served again on a worker, and timed there
            } catch (RuntimeException refused) {
                timeHandler(start);
                throw refused;
            }
            CompletionStage<?> answer = result instanceof CompletionStage<?> stage ? stage
                    : CompletableFuture.completedFuture(result);
            return endpoint.handlerTime() == null ? answer
                    : answer.whenComplete((value, failure) -> timeHandler(start));
        }

        private void timeHandler(long start) {
            if (endpoint.handlerTime() != null) {
                endpoint.handlerTime().record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
            }
        }
    }

    private Answer answer(Object value, Throwable failure, String id) {
        if (failure == null) {
            ApiResponse<Object> ok = ApiResponse.ok(value);
            try {
                return new Answer(mapper.writeValueAsBytes(ok), ok.code(), id, null);
            } catch (JsonProcessingException e) {
                failure = new IllegalStateException("the answer cannot be written as JSON", e);
            }
        }
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause()
                : failure;
        ApiResponse<Object> envelope = ExceptionMappers.answerFor(cause, id);
        try {
            return new Answer(mapper.writeValueAsBytes(envelope), envelope.code(), id,
                    cause instanceof Throttled throttled ? throttled.retryAfterSeconds() : null);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("the envelope cannot be written as JSON", e);
        }
    }

    /** Writes the answer to a call of {@code path}, counted by its envelope's code as the resources' are. */
    private void write(RoutingContext ctx, String path, Answer answer) {
        ApiCodeMetrics.count(registry, path, answer.code());
        if (ctx.response().ended() || ctx.response().closed()) {
            return; // the caller went away
        }
        ctx.response().putHeader(HttpHeaders.CONTENT_TYPE, JSON_TYPE).putHeader(CorrelationId.HEADER, answer.correlationId());
        if (answer.retryAfterSeconds() != null) {
            ctx.response().putHeader(HttpHeaders.RETRY_AFTER, Long.toString(answer.retryAfterSeconds()));
        }
        ctx.response().end(Buffer.buffer(answer.json()));
    }
}
