package io.changeflow.bootstrap;

import io.changeflow.domain.config.RawValue;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;

/**
 * Settings read as raw text and resolved fail-safe by a policy of the core ({@code Policy.of(RawValue, RawValue)}):
 * a value that cannot even be read as text counts as missing, so none of them ever stops the service from starting.
 */
final class FailSafeSettings {

    private static final Logger log = LoggerFactory.getLogger(FailSafeSettings.class);

    private FailSafeSettings() {
    }

    /**
     * The policy of the keys {@code first} and {@code second}; logs what each resolved to ({@code firstValue},
     * {@code secondValue}) beside what was configured.
     */
    static <P> P resolve(Environment environment, String first, String second, BiFunction<RawValue, RawValue, P> policyOf,
                         Function<P, Object> firstValue, Function<P, Object> secondValue) {
        var binder = Binder.get(environment);
        var firstText = text(binder, first);
        var secondText = text(binder, second);
        var policy = policyOf.apply(new RawValue(firstText), new RawValue(secondText));
        log.info("{} {} (configured '{}'), {} {} (configured '{}')", first, firstValue.apply(policy), firstText.orElse(""),
                second, secondValue.apply(policy), secondText.orElse(""));
        return policy;
    }

    /** The raw text of a key; a value that cannot even be read as text counts as missing. */
    private static Optional<String> text(Binder binder, String key) {
        try {
            return binder.bind(key, String.class).map(Optional::of).orElse(Optional.empty());
        } catch (RuntimeException e) {
            log.warn("{} could not be read; its default applies", key);
            return Optional.empty();
        }
    }
}
