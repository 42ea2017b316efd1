package io.changeflow.sandbox.support;

/** Signing secrets of the simulator tests (test-only values). */
public final class TestSecrets {

    public static final String APPROVAL = "whsec_dGVzdC1hcHByb3ZhbC1zZWNyZXQtMDEyMzQ1Njc4OQ==";
    public static final String DEPLOY = "whsec_dGVzdC1kZXBsb3ktc2VjcmV0LTAxMjM0NTY3ODlhYg==";

    private TestSecrets() {}
}
