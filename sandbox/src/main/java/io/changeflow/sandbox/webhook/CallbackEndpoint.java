package io.changeflow.sandbox.webhook;

import java.net.URI;
import org.springframework.core.env.Environment;

/**
 * Where the simulators deliver their callbacks: {@code sandbox.callback-base-url}, by default the
 * application itself ({@code http://localhost:<its port>}). Resolved on every delivery, because
 * the real port of a server started on port 0 is known only once it is running.
 */
public final class CallbackEndpoint {

    static final String PROPERTY = "sandbox.callback-base-url";
    static final String DEFAULT = "http://localhost:${local.server.port:${server.port:8080}}${server.servlet.context-path:}";

    private final Environment environment;

    public CallbackEndpoint(Environment environment) {
        this.environment = environment;
    }

    /** @param path e.g. {@code /callbacks/approval} */
    public URI resolve(String path) {
        var configured = environment.getProperty(PROPERTY);
        var base = configured == null || configured.isBlank()
                ? environment.resolvePlaceholders(DEFAULT)
                : configured.strip();
        if (base.endsWith("/")) {
            base = base.substring(0, base.length() - 1);
        }
        return URI.create(base + path);
    }
}
