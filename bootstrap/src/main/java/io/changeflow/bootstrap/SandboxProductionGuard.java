package io.changeflow.bootstrap;

import java.net.InetAddress;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;

/**
 * Refuses to start the sandbox profile (simulators, demo sign-in, demo roles and secrets, access OPEN)
 * where a production marker is present: {@code changeflow.environment=production}, or a
 * {@code changeflow.gitlab.base-url} that is not a sandbox GitLab simulator (a loopback host, path
 * {@code /sim/gitlab...}). A real database URL is not a marker: the sandbox runs on the CI's MariaDB.
 * Runs before anything else starts (the embedded database included). Docs: docs/configuration.md.
 */
class SandboxProductionGuard implements EnvironmentPostProcessor, Ordered {

    static final String SANDBOX = "sandbox";
    static final String ENVIRONMENT = "changeflow.environment";
    static final String GITLAB_URL = "changeflow.gitlab.base-url";

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        if (!environment.matchesProfiles(SANDBOX)) {
            return;
        }
        var markers = productionMarkers(environment.getProperty(ENVIRONMENT), environment.getProperty(GITLAB_URL));
        if (!markers.isEmpty()) {
            throw new IllegalStateException("Refusing to start: the sandbox profile (simulators, demo sign-in, demo roles "
                    + "and secrets, ACCESS_MODE OPEN) is active where production is configured: " + String.join("; ", markers)
                    + ". Remove 'sandbox' from spring.profiles.active for production, or remove the production settings "
                    + "to run the sandbox.");
        }
    }

    /** Why this looks like production (empty: it does not). */
    static List<String> productionMarkers(String environmentName, String gitlabUrl) {
        var markers = new ArrayList<String>();
        if (environmentName != null && environmentName.strip().toLowerCase(Locale.ROOT).startsWith("prod")) {
            markers.add(ENVIRONMENT + "=" + environmentName.strip());
        }
        if (gitlabUrl != null && !gitlabUrl.isBlank() && !isSandboxSimulator(gitlabUrl.strip())) {
            markers.add(GITLAB_URL + " is not a sandbox GitLab simulator (a loopback address, path /sim/gitlab)");
        }
        return markers;
    }

    private static boolean isSandboxSimulator(String url) {
        try {
            var uri = URI.create(url);
            var host = uri.getHost();
            var path = uri.getPath() == null ? "" : uri.getPath();
            return host != null && (path.equals("/sim/gitlab") || path.startsWith("/sim/gitlab/"))
                    && (host.equalsIgnoreCase("localhost") || isLoopbackLiteral(host));
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** A loopback IP literal (never a name lookup: a name could resolve anywhere). */
    private static boolean isLoopbackLiteral(String host) {
        var literal = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        if (!literal.matches("[0-9.]+|[0-9a-fA-F:]+")) {
            return false;
        }
        try {
            return InetAddress.getByName(literal).isLoopbackAddress();
        } catch (java.net.UnknownHostException e) {
            return false;
        }
    }

    @Override
    public int getOrder() {
        // after the config data, before the embedded database starter
        return Ordered.LOWEST_PRECEDENCE - 1;
    }
}
