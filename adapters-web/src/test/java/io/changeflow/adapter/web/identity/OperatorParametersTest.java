package io.changeflow.adapter.web.identity;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OperatorParametersTest {

    @Test
    void theClientsParametersAreCopiedFirstAndTheReservedOneOverwrittenAfter() {
        var client = new LinkedHashMap<String, String[]>();
        client.put(OperatorParameters.RESERVED, new String[] {"mallory"});
        client.put("reason", new String[] {"stuck", "again"});
        var parameters = OperatorParameters.of(client, "otto");
        assertThat(parameters.operator()).isEqualTo("otto");
        assertThat(parameters.values()).containsEntry("reason", List.of("stuck", "again"))
                .containsEntry(OperatorParameters.RESERVED, List.of("otto"));
    }

    /** Reliability finding: a malformed form body gave a parameter a null value, and copying it failed (500). */
    @Test
    void aParameterWithNullValuesIsCopiedAsEmptyNeverAFailure() {
        var client = new LinkedHashMap<String, String[]>();
        client.put("[[[", new String[] {null, "x"});
        client.put("empty", null);

        var parameters = OperatorParameters.of(client, "otto");

        assertThat(parameters.values()).containsEntry("[[[", List.of("", "x")).containsEntry("empty", List.of())
                .containsEntry(OperatorParameters.RESERVED, List.of("otto"));
    }

    @Test
    void secretsAreMaskedByNameAndByWellKnownValuePrefixes() {
        var audited = OperatorParameters.of(Map.of(
                "webhookSecret", new String[] {"anything"},
                "X_API_KEY", new String[] {"k"},
                "sessionId", new String[] {"s"},
                "note", new String[] {"whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"},
                "harmless", new String[] {"fine"}), "otto").forAudit();
        assertThat(audited).containsEntry("webhookSecret", OperatorParameters.MASK)
                .containsEntry("X_API_KEY", OperatorParameters.MASK)
                .containsEntry("sessionId", OperatorParameters.MASK)
                .containsEntry("note", OperatorParameters.MASK)
                .containsEntry("harmless", "fine");
    }

    @Test
    void keysValuesAndTheNumberOfParametersAreTruncated() {
        var client = new LinkedHashMap<String, String[]>();
        client.put("k".repeat(100), new String[] {"v".repeat(1000)});
        for (var i = 0; i < 40; i++) {
            client.put("p" + i, new String[] {"line\nbreak"});
        }
        var audited = OperatorParameters.of(client, "otto").forAudit();
        assertThat(audited).hasSize(OperatorParameters.MAX_AUDITED_PARAMETERS + 1);
        assertThat(audited.keySet()).allSatisfy(key -> assertThat(key.length()).isLessThanOrEqualTo(OperatorParameters.MAX_AUDITED_KEY_LENGTH + 3));
        assertThat(audited.values()).allSatisfy(value -> assertThat(value.length()).isLessThanOrEqualTo(OperatorParameters.MAX_AUDITED_VALUE_LENGTH + 3));
        assertThat(audited.values()).noneMatch(value -> value.contains("\n"));
        assertThat(audited).containsEntry("__omitted", "10 more parameters");
        assertThat(audited.keySet()).first().isEqualTo(OperatorParameters.RESERVED);
        assertThat(audited).containsEntry(OperatorParameters.RESERVED, "otto");
    }
}
