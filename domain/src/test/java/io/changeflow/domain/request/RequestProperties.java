package io.changeflow.domain.request;

import static io.changeflow.propertytesting.Generators.elements;
import static io.changeflow.propertytesting.Generators.lists;
import static io.changeflow.propertytesting.Generators.longs;
import static io.changeflow.propertytesting.Generators.oneOf;
import static io.changeflow.propertytesting.Generators.strings;
import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.propertytesting.Generator;
import io.changeflow.propertytesting.Property;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class RequestProperties {

    private static final TargetKey TARGET = TargetKey.of("db-prod-readonly");

    private static Generator<ChangeRequest> requests() {
        // small alphabets so that equal payloads are generated often
        var op = elements("00000000-0000-4000-8000-000000000001", "00000000-0000-4000-8000-000000000002")
                .map(OperationId::of);
        var requester = elements("alice", "bob", "al");
        var target = elements("db", "db-prod", "d").map(TargetKey::of);
        var subject = elements("alice", "bob", "ice").map(SubjectId::of);
        var reason = strings("ab\n\r- ", 1, 4);
        var expiry = elements(Instant.parse("2026-01-01T00:00:00Z"), Instant.parse("2026-01-01T00:00:00.5Z"))
                .injectNull(0.4).map(Optional::ofNullable);
        return s -> new ChangeRequest(op.generate(s), requester.generate(s), target.generate(s), subject.generate(s),
                reason.generate(s), expiry.generate(s));
    }

    record Pair(ChangeRequest a, ChangeRequest b) {}

    @Test
    void fingerprintsAreEqualExactlyWhenThePayloadsAre() {
        Property.forAll(requests().zip(requests(), Pair::new)).tries(3000).check(p -> {
            var a = p.a();
            var b = p.b();
            var samePayload = a.requester().equals(b.requester()) && a.target().equals(b.target())
                    && a.subject().equals(b.subject()) && a.reason().equals(b.reason()) && a.expiresAt().equals(b.expiresAt());
            assertThat(a.fingerprint().equals(b.fingerprint())).as("%s vs %s", a, b).isEqualTo(samePayload);
        });
    }

    /** Batches of grants with distinct subjects (the first grant of a subject is kept). */
    private static Generator<List<Grant>> batches() {
        var first = strings("abcdefghijklmnopqrstuvwxyz", 1, 1);
        var subject = first.zip(strings("abz09._-", 0, 8), String::concat).map(SubjectId::of);
        var until = longs(1_700_000_000L, 1_900_000_000L).map(Instant::ofEpochSecond).injectNull(0.3).map(Optional::ofNullable);
        var op = longs().zip(longs(), (hi, lo) -> new UUID(hi, lo).toString()).map(OperationId::of);
        Generator<Grant> grant = s -> new Grant(subject.generate(s), until.generate(s), op.generate(s));
        return lists(grant, 0, 25).map(grants -> {
            var seen = new HashSet<SubjectId>();
            return grants.stream().filter(g -> seen.add(g.subject())).collect(Collectors.toCollection(ArrayList::new));
        });
    }

    private static Generator<String> existingFiles() {
        var line = oneOf(
                elements("# header", "# another comment", "", "  ", "hand edited line", "x until=soon op=bad"),
                elements("alice", "bob", "zed").map(s -> s + " until=never op=00000000-0000-4000-8000-00000000000" + s.length()));
        return lists(line, 0, 8).map(lines -> String.join("\n", lines));
    }

    record Combination(String existing, List<Grant> batch, long seed) {}

    @Test
    void combiningABatchGivesTheSameFileInAnyOrder() {
        Generator<Combination> combinations = s -> new Combination(existingFiles().generate(s), batches().generate(s),
                longs().generate(s));
        Property.forAll(combinations).tries(1000).check(c -> {
            var base = GrantFile.parse(TARGET, c.existing());
            var expected = base.with(c.batch()).render();
            var shuffled = new ArrayList<>(c.batch());
            Collections.shuffle(shuffled, new Random(c.seed()));
            assertThat(base.with(shuffled).render()).isEqualTo(expected);
            var oneByOne = base;
            for (var grant : shuffled) {
                oneByOne = oneByOne.with(grant);
            }
            assertThat(oneByOne.render()).isEqualTo(expected);
            for (var grant : c.batch()) {
                assertThat(base.with(shuffled).grantOf(grant.subject())).contains(grant);
            }
        });
    }

    record FileAndBatch(String existing, List<Grant> batch) {}

    @Test
    void renderedFilesParseBackToThemselves() {
        Property.forAll(existingFiles().zip(batches(), FileAndBatch::new)).tries(1000).check(fb -> {
            var rendered = GrantFile.parse(TARGET, fb.existing()).with(fb.batch()).render();
            assertThat(GrantFile.parse(TARGET, rendered).render()).isEqualTo(rendered);
            assertThat(rendered).endsWith("\n");
            var grantLines = rendered.lines().filter(l -> !l.startsWith("#")).filter(l -> l.matches("\\S+ until=\\S+ op=[0-9a-f-]{36}"))
                    .map(l -> l.substring(0, l.indexOf(' '))).toList();
            assertThat(grantLines).isSorted().doesNotHaveDuplicates();
        });
    }

    // --- validation reports every problem at once ------------------------------------------------

    private static final Instant NOW = Instant.parse("2025-06-02T10:00:00Z");

    record Form(String operationId, String targetKey, String subjectId, String reason, String expiresAt, String requester) {}

    private static Generator<Form> forms() {
        var operationId = elements("3f2504e0-4f89-11d3-9a0c-0305e82c3301", " 3F2504E0-4F89-11D3-9A0C-0305E82C3301 ", null, " ",
                "not-a-uuid");
        var targetKey = elements("db", "db-prod-readonly", null, "", "DB PROD");
        var subjectId = elements(null, "", " ", "bob", " Bob ", "1bob");
        var reason = elements("why", "line one\r\nline two", "\tindented\r", null, " ", "\r\n", "x".repeat(501), "a\u0000b",
                "bell\u0007");
        var expiresAt = elements(null, "", "2025-06-10", "2025-06-02T17:00:00Z", "someday", "2020-01-01", "2030-01-01");
        var requester = elements("alice", "Carol", "E1001@x", "not a subject");
        return s -> new Form(operationId.generate(s), targetKey.generate(s), subjectId.generate(s), reason.generate(s),
                expiresAt.generate(s), requester.generate(s));
    }

    /** The field errors a form should get, worked out field by field from the rules. */
    private static Map<String, String> expectedErrors(Form f) {
        var errors = new LinkedHashMap<String, String>();
        if (f.operationId() == null || f.operationId().isBlank()) {
            errors.put("operationId", "REQUIRED");
        } else if (f.operationId().equals("not-a-uuid")) {
            errors.put("operationId", "INVALID_FORMAT");
        }
        if (f.targetKey() == null || f.targetKey().isBlank()) {
            errors.put("targetKey", "REQUIRED");
        } else if (f.targetKey().equals("DB PROD")) {
            errors.put("targetKey", "INVALID_FORMAT");
        }
        var subjectGiven = f.subjectId() != null && !f.subjectId().isBlank();
        if (subjectGiven && f.subjectId().equals("1bob")) {
            errors.put("subjectId", "INVALID_FORMAT");
        } else if (!subjectGiven && !List.of("alice", "Carol").contains(f.requester())) {
            errors.put("subjectId", "REQUIRED");
        }
        if (f.reason() == null || f.reason().isBlank()) {
            errors.put("reason", "REQUIRED");
        } else if (f.reason().length() > Submission.REASON_MAX) {
            errors.put("reason", "TOO_LONG");
        } else if (f.reason().contains("\u0000") || f.reason().contains("\u0007")) {
            errors.put("reason", "INVALID_CHARACTERS");
        }
        if (f.expiresAt() != null) {
            switch (f.expiresAt()) {
                case "someday" -> errors.put("expiresAt", "INVALID_FORMAT");
                case "2020-01-01" -> errors.put("expiresAt", "IN_THE_PAST");
                case "2030-01-01" -> errors.put("expiresAt", "TOO_FAR");
                default -> { }
            }
        }
        return errors;
    }

    @Test
    void validationReportsEveryBrokenFieldAtOnceAndOnlyThose() {
        Property.forAll(forms()).tries(5000).check(f -> {
            var validation = new Submission(f.operationId(), f.targetKey(), f.subjectId(), f.reason(), f.expiresAt())
                    .validate(f.requester(), NOW);
            var expected = expectedErrors(f);
            switch (validation) {
                case Submission.Validation.Valid valid -> {
                    assertThat(expected).as("valid, expected errors").isEmpty();
                    assertThat(valid.request().reason()).isEqualTo(f.reason().strip());
                    assertThat(valid.request().requester()).isEqualTo(f.requester());
                }
                case Submission.Validation.Invalid invalid -> {
                    var actual = new LinkedHashMap<String, String>();
                    for (var error : invalid.errors()) {
                        assertThat(actual.put(error.field(), error.code())).as("one error per field: %s", error.field()).isNull();
                        assertThat(error.message()).isNotBlank();
                    }
                    assertThat(actual).isEqualTo(expected);
                }
            }
        });
    }
}
