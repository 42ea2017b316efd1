package io.changeflow.testsupport;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Something a test class opens before its first test and closes after its last: register it as a static
 * {@code @RegisterExtension} field. Outside JUnit, call {@link #open(String)} and {@link #close()}.
 */
public interface ClassScoped extends BeforeAllCallback, AfterAllCallback, AutoCloseable {

    /** Opens it, named after {@code hint} (under JUnit, the test class's simple name); opening it again does nothing. */
    ClassScoped open(String hint);

    /** Closes what {@link #open(String)} opened; closing it again does nothing. */
    @Override
    void close();

    @Override
    default void beforeAll(ExtensionContext context) {
        open(context.getRequiredTestClass().getSimpleName());
    }

    @Override
    default void afterAll(ExtensionContext context) {
        close();
    }
}
