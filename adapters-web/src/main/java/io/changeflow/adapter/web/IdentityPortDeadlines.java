package io.changeflow.adapter.web;

import io.changeflow.adapter.web.identity.TimeBoxedCalls;
import io.changeflow.application.port.out.Directory;
import io.changeflow.application.port.out.Permissions;
import io.changeflow.domain.identity.Identity;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import org.springframework.beans.factory.config.BeanPostProcessor;

/**
 * Puts a deadline and a bulkhead on the {@link Permissions} and {@link Directory} beans, whichever adapter
 * defines them (the embedded defaults, or a deployment's permission service and company directory), so every
 * caller gets them: the authorization interceptor, {@code ShowChangeRequest}, the identity resolver and the
 * metrics code that reads identities. A call past its deadline, or refused by a full bulkhead, throws
 * {@link TimeBoxedCalls.Failure}; the ports' callers already treat any exception as "holds nothing" (permissions)
 * or "login failed" (directory). The embedded defaults answer in-process from memory, so for them the deadline
 * never fires; it is there for the adapters that call out.
 */
public final class IdentityPortDeadlines implements BeanPostProcessor {

    private final Supplier<WebProperties> properties;

    /** @param properties read when the first port is wrapped (a post-processor is created before the rest) */
    IdentityPortDeadlines(Supplier<WebProperties> properties) {
        this.properties = properties;
    }

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) {
        if (bean instanceof Permissions permissions && !(bean instanceof Directory) && !(bean instanceof TimeBoxedPermissions)) {
            return new TimeBoxedPermissions(permissions,
                    new TimeBoxedCalls("permission-check", 8, 16, properties.get().permissionsTimeout()));
        }
        if (bean instanceof Directory directory && !(bean instanceof Permissions) && !(bean instanceof TimeBoxedDirectory)) {
            return new TimeBoxedDirectory(directory,
                    new TimeBoxedCalls("directory-lookup", 8, 16, properties.get().directoryTimeout()));
        }
        return bean;
    }

    /** A port's {@code delegate} behind a deadline and a bulkhead ({@code calls}), closed with it. */
    abstract static class TimeBoxedPort<P> implements AutoCloseable {

        final P delegate;
        final TimeBoxedCalls calls;

        TimeBoxedPort(P delegate, TimeBoxedCalls calls) {
            this.delegate = delegate;
            this.calls = calls;
        }

        @Override
        public void close() {
            calls.close();
        }
    }

    /** {@link Permissions} with a deadline and a bulkhead. */
    static final class TimeBoxedPermissions extends TimeBoxedPort<Permissions> implements Permissions {

        TimeBoxedPermissions(Permissions delegate, TimeBoxedCalls calls) {
            super(delegate, calls);
        }

        @Override
        public Set<String> granted(Identity identity, Set<String> ruleCodes) {
            return calls.callOrThrow(() -> delegate.granted(identity, ruleCodes));
        }
    }

    /** {@link Directory} with a deadline and a bulkhead. */
    static final class TimeBoxedDirectory extends TimeBoxedPort<Directory> implements Directory {

        TimeBoxedDirectory(Directory delegate, TimeBoxedCalls calls) {
            super(delegate, calls);
        }

        @Override
        public Optional<String> accountOf(String employeeId) {
            return calls.callOrThrow(() -> delegate.accountOf(employeeId));
        }
    }

    static Duration positive(Duration configured, Duration fallback) {
        return configured == null || configured.isNegative() || configured.isZero() ? fallback : configured;
    }
}
