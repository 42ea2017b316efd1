package io.changeflow.adapter.web;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Registered for every test of the module (auto-detection is enabled in the module's surefire configuration): after
 * each test, every response body it produced is scanned for a stack trace, an exception class name,
 * a Java package name or SQL.
 */
public final class ResponseBodyScanExtension implements AfterEachCallback {

    @Override
    public void afterEach(ExtensionContext context) {
        assertThat(ResponseCorpus.drainLeaks()).as("response bodies must not leak internals").isEmpty();
    }
}
