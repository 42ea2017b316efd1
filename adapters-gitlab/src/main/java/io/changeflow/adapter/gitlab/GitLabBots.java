package io.changeflow.adapter.gitlab;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.gitlab4j.api.GitLabApi;

/**
 * One gitlab4j client per bot account, each with its own token and the configured connect and read
 * timeouts: the author bot, and the approval bots by account name. The base URL is read on every use,
 * so a placeholder such as {@code ${local.server.port}} resolves once the server runs; the clients are
 * rebuilt when it changes.
 */
final class GitLabBots implements AutoCloseable {

    /** An approval bot: its account, its token (for the direct HTTP call) and its own client. */
    record ApprovalBot(String account, String token, GitLabApi api) {

        @Override
        public String toString() {
            return "ApprovalBot[" + account + "]";
        }
    }

    private record Clients(String baseUrl, GitLabApi author, Map<String, ApprovalBot> approvers) {}

    static final String BASE_URL_NOT_SET = "changeflow.gitlab.base-url is not set";
    static final String AUTHOR_TOKEN_NOT_SET = "changeflow.gitlab.author.token is not set";

    private final GitLabProperties properties;
    private final Supplier<String> baseUrl;
    private final TraceHeaders traceHeaders;
    private final GitLabRateLimitHeaders rateLimitHeaders;
    private final List<GitLabApi> created = new ArrayList<>();
    private volatile Clients clients;

    /** @param traceHeaders what every client's requests carry of the caller's trace */
    GitLabBots(GitLabProperties properties, Supplier<String> baseUrl, TraceHeaders traceHeaders) {
        this(properties, baseUrl, traceHeaders, GitLabRateLimitHeaders.NONE);
    }

    /** @param rateLimitHeaders what reads GitLab's {@code RateLimit-*} headers of every client's answers */
    GitLabBots(GitLabProperties properties, Supplier<String> baseUrl, TraceHeaders traceHeaders,
               GitLabRateLimitHeaders rateLimitHeaders) {
        this.properties = properties;
        this.baseUrl = baseUrl;
        this.traceHeaders = traceHeaders;
        this.rateLimitHeaders = rateLimitHeaders;
    }

    TraceHeaders traceHeaders() {
        return traceHeaders;
    }

    GitLabRateLimitHeaders rateLimitHeaders() {
        return rateLimitHeaders;
    }

    /** The bot that opens merge requests; also used for every read. */
    GitLabApi author() {
        return clients().author();
    }

    /** The approval bot named {@code account}; an unknown name is a configuration error, not a GitLab answer. */
    ApprovalBot approver(String account) {
        if (!approverAccounts().contains(account)) {
            throw new IllegalArgumentException("no approval bot is configured with the account '" + account
                    + "' (changeflow.gitlab.approvers); configured: " + approverAccounts());
        }
        return clients().approvers().get(account);
    }

    /** The approval bots' accounts in configuration order, each once (the first entry of a repeated account wins). */
    List<String> approverAccounts() {
        return properties.approvers().stream().map(GitLabProperties.Bot::account).distinct().toList();
    }

    /** The base URL in use now; empty when not set. */
    String baseUrl() {
        return baseUrl.get();
    }

    /**
     * What keeps the adapter from calling GitLab now, as a message naming the setting (e.g.
     * {@value #BASE_URL_NOT_SET}); empty when it is configured.
     */
    Optional<String> notConfigured() {
        if (baseUrl.get().isEmpty()) {
            return Optional.of(BASE_URL_NOT_SET);
        }
        if (!properties.author().hasToken()) {
            return Optional.of(AUTHOR_TOKEN_NOT_SET);
        }
        return Optional.empty();
    }

    private Clients clients() {
        var url = baseUrl.get();
        var current = clients;
        if (current != null && current.baseUrl().equals(url)) {
            return current;
        }
        synchronized (this) {
            if (clients == null || !clients.baseUrl().equals(url)) {
                var approvers = new LinkedHashMap<String, ApprovalBot>();
                for (var bot : properties.approvers()) {
                    if (!approvers.containsKey(bot.account())) {
                        approvers.put(bot.account(), new ApprovalBot(bot.account(), bot.token(), client(url, bot.token())));
                    }
                }
                clients = new Clients(url, client(url, properties.author().token()), Map.copyOf(approvers));
            }
            return clients;
        }
    }

    private GitLabApi client(String url, String token) {
        var api = rateLimitHeaders.readingAnswersOf(traceHeaders.sendingFrom(new GitLabApi(url, token)));
        api.setRequestTimeout(GitLabProperties.millis(properties.connectTimeout()),
                GitLabProperties.millis(properties.readTimeout()));
        created.add(api);
        return api;
    }

    @Override
    public synchronized void close() {
        created.forEach(GitLabApi::close);
        created.clear();
    }
}
