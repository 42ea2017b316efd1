package io.changeflow.application.fake;

import io.changeflow.application.port.out.CallbackAuthenticity;
import java.util.EnumMap;
import java.util.Map;

/**
 * {@link CallbackAuthenticity} that accepts a callback carrying {@code webhook-signature: valid} for a
 * configured source; without a configured secret every callback is refused (fail closed).
 */
public final class FakeCallbackAuthenticity implements CallbackAuthenticity {

    private final Map<Source, Boolean> configured = new EnumMap<>(Source.class);

    public FakeCallbackAuthenticity configure(Source source, boolean hasSecret) {
        configured.put(source, hasSecret);
        return this;
    }

    @Override
    public synchronized Verdict verify(Source source, Map<String, String> headers, byte[] rawBody) {
        if (!configured(source)) {
            return Verdict.NOT_CONFIGURED;
        }
        return "valid".equals(headers.get("webhook-signature")) ? Verdict.VALID : Verdict.INVALID;
    }

    @Override
    public synchronized boolean configured(Source source) {
        return configured.getOrDefault(source, false);
    }
}
