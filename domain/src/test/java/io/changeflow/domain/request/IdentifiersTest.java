package io.changeflow.domain.request;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** OperationId, TargetKey, SubjectId and Target: parsing untrusted text into canonical values. */
class IdentifiersTest {

    private static final String UPPER = "3F2504E0-4F89-11D3-9A0C-0305E82C3301";
    private static final String LOWER = "3f2504e0-4f89-11d3-9a0c-0305e82c3301";

    @Test
    void operationIdIsCanonicallyLowerCase() {
        assertThat(OperationId.parse(UPPER)).contains(OperationId.of(LOWER));
        assertThat(OperationId.parse(" " + UPPER + "\t").orElseThrow().value()).isEqualTo(LOWER);
        assertThat(OperationId.of(UPPER)).isEqualTo(OperationId.of(LOWER)).hasToString(LOWER);
        assertThat(OperationId.of("3F2504e0-4f89-11D3-9a0c-0305E82C3301").value()).isEqualTo(LOWER);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "not-a-uuid", "3f2504e0-4f89-11d3-9a0c-0305e82c330", "3f2504e0-4f89-11d3-9a0c-0305e82c33011",
            "3f2504e04f8911d39a0c0305e82c3301", "{3f2504e0-4f89-11d3-9a0c-0305e82c3301}", "3g2504e0-4f89-11d3-9a0c-0305e82c3301",
            "3f2504e0_4f89_11d3_9a0c_0305e82c3301", "3f2504e0-4f89-11d3-9a0c-0305e82c3301\u0000x", "３f2504e0-4f89-11d3-9a0c-0305e82c3301"})
    void operationIdRejectsAnythingButAUuid(String raw) {
        assertThat(OperationId.parse(raw)).isEmpty();
    }

    @Test
    void operationIdRejectsNullAndInvalidConstruction() {
        assertThat(OperationId.parse(null)).isEmpty();
        assertThatThrownBy(() -> OperationId.of("nope")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> OperationId.of(" " + LOWER)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new OperationId(null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void targetKeyIsTrimmedButCaseSensitive() {
        assertThat(TargetKey.parse(" db-prod-readonly ")).contains(TargetKey.of("db-prod-readonly"));
        assertThat(TargetKey.parse("0day.ok_1")).isPresent();
        assertThat(TargetKey.parse("DB-Prod")).isEmpty();
        assertThat(TargetKey.parse("a".repeat(64))).isPresent();
        assertThat(TargetKey.parse("a".repeat(65))).isEmpty();
        assertThat(TargetKey.parse("-db")).isEmpty();
        assertThat(TargetKey.parse("db prod")).isEmpty();
        assertThat(TargetKey.parse("")).isEmpty();
        assertThat(TargetKey.parse(null)).isEmpty();
        assertThat(TargetKey.of("db")).hasToString("db");
        assertThatThrownBy(() -> TargetKey.of("DB")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void subjectIdIsTrimmedAndLowerCased() {
        assertThat(SubjectId.parse(" Alice ")).contains(SubjectId.of("alice"));
        assertThat(SubjectId.parse("svc-report.v2_x")).isPresent();
        assertThat(SubjectId.parse("a".repeat(64))).isPresent();
        assertThat(SubjectId.parse("a".repeat(65))).isEmpty();
        assertThat(SubjectId.parse("1alice")).isEmpty();
        assertThat(SubjectId.parse("al ice")).isEmpty();
        assertThat(SubjectId.parse("álice")).isEmpty();
        assertThat(SubjectId.parse("")).isEmpty();
        assertThat(SubjectId.parse(null)).isEmpty();
        assertThat(SubjectId.of("bob")).hasToString("bob");
        assertThatThrownBy(() -> SubjectId.of("Bob")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void targetWithoutAPartitionIsInTheDefaultOne() {
        var key = TargetKey.of("db-prod-readonly");
        assertThat(new Target(key, "DB", "read", "platform/access", "db.txt", true, null).partition())
                .isEqualTo(Target.DEFAULT_PARTITION).isEqualTo("global");
        assertThat(new Target(key, "DB", "read", "platform/access", "db.txt", true, " ").partition()).isEqualTo("global");
        assertThat(new Target(key, "DB", "read", "platform/access", "db.txt", true, "eu").partition()).isEqualTo("eu");
        assertThatThrownBy(() -> new Target(null, "DB", "read", "p", "f", false, null)).isInstanceOf(NullPointerException.class);
    }
}
