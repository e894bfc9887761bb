package io.imcore.pushworker.channel.http;

import java.io.IOException;
import java.net.Authenticator;
import java.net.CookieHandler;
import java.net.ProxySelector;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicReference;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;

/** An {@link HttpClient} that hands every answer to {@link ProviderAnswers} when a caller listens; else a plain delegate. */
final class RecordingHttpClient extends HttpClient {

    private final HttpClient delegate;

    RecordingHttpClient(HttpClient delegate) {
        this.delegate = delegate;
    }

    @Override
    public <T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> handler)
            throws IOException, InterruptedException {
        AtomicReference<ProviderAnswers.Answer> listener = ProviderAnswers.listener();
        HttpResponse<T> response = delegate.send(request, handler);
        ProviderAnswers.record(listener, response);
        return response;
    }

    @Override
    public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request,
            HttpResponse.BodyHandler<T> handler) {
        // the listener is the caller's thread's; the answer arrives on another one
        AtomicReference<ProviderAnswers.Answer> listener = ProviderAnswers.listener();
        CompletableFuture<HttpResponse<T>> response = delegate.sendAsync(request, handler);
        // the dispatch loop never listens: no extra stage per provider call there
        return listener == null ? response : response.whenComplete((r, e) -> ProviderAnswers.record(listener, r));
    }

    @Override
    public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request, HttpResponse.BodyHandler<T> handler,
            HttpResponse.PushPromiseHandler<T> pushPromiseHandler) {
        AtomicReference<ProviderAnswers.Answer> listener = ProviderAnswers.listener();
        CompletableFuture<HttpResponse<T>> response = delegate.sendAsync(request, handler, pushPromiseHandler);
        return listener == null ? response : response.whenComplete((r, e) -> ProviderAnswers.record(listener, r));
    }

    @Override
    public Optional<CookieHandler> cookieHandler() {
        return delegate.cookieHandler();
    }

    @Override
    public Optional<Duration> connectTimeout() {
        return delegate.connectTimeout();
    }

    @Override
    public Redirect followRedirects() {
        return delegate.followRedirects();
    }

    @Override
    public Optional<ProxySelector> proxy() {
        return delegate.proxy();
    }

    @Override
    public SSLContext sslContext() {
        return delegate.sslContext();
    }

    @Override
    public SSLParameters sslParameters() {
        return delegate.sslParameters();
    }

    @Override
    public Optional<Authenticator> authenticator() {
        return delegate.authenticator();
    }

    @Override
    public Version version() {
        return delegate.version();
    }

    @Override
    public Optional<Executor> executor() {
        return delegate.executor();
    }
}
