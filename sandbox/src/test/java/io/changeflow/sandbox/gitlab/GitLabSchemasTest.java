package io.changeflow.sandbox.gitlab;

import static org.assertj.core.api.Assertions.assertThat;

import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import io.changeflow.sandbox.gitlab.GitLabSimulatorProperties.Profile;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import tools.jackson.databind.json.JsonMapper;

/**
 * Issue 35: the simulator's answers checked against GitLab's own JSON schemas of the public API (vendored under
 * {@code src/test/resources/gitlab-schemas/public_api/v4}, origin and licence in its NOTICE.md) and Changeflow's
 * extensions where those are loose ({@code gitlab-schemas/changeflow}): the single merge request in every state the
 * adapter reads (open and checking, with a head pipeline, blocked, merged), the merge request list, and the pipelines.
 */
class GitLabSchemasTest extends SeededGitLabTest {

    private static final Duration CHECKING = Duration.ofSeconds(2);
    private static final Duration PIPELINE = Duration.ofSeconds(10);
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final SchemaRegistry SCHEMAS = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_4);

    @BeforeEach
    void start() {
        seed(GitLabSimulatorProperties.defaults().withTimings(CHECKING, PIPELINE, Duration.ofSeconds(1)), null);
    }

    @ParameterizedTest
    @EnumSource(Profile.class)
    void theMergeRequestAnswersFollowGitLabsSchemaAndChangeflowsStricterOne(Profile profile) {
        gitlab.setBehaviour(profile, false, Duration.ZERO);
        var iid = open("schema-" + profile.settingName());
        assertValid("changeflow/merge_request.json", gitlab.getMergeRequest(PROJECT, iid, true, false), "checking");

        clock.advance(CHECKING);
        clock.advance(PIPELINE);
        assertValid("changeflow/merge_request.json", gitlab.getMergeRequest(PROJECT, iid, true, false), "with its pipeline");
        gitlab.setDraft(PROJECT, iid, true);
        assertValid("changeflow/merge_request.json", gitlab.getMergeRequest(PROJECT, iid, true, false), "a draft");
        gitlab.setDraft(PROJECT, iid, false);
        for (var listed : gitlab.listMergeRequests(PROJECT, mr -> true)) {
            assertValid("public_api/v4/merge_request.json", listed, "listed");
        }

        gitlab.merge(PROJECT, iid, gitlab.mergeRequestSha(PROJECT, iid), author);
        assertValid("changeflow/merge_request.json", gitlab.getMergeRequest(PROJECT, iid, true, false), "merged");
    }

    @ParameterizedTest
    @EnumSource(Profile.class)
    void thePipelinesFollowGitLabsBasicPipelineSchemaAndChangeflowsStatuses(Profile profile) {
        gitlab.setBehaviour(profile, false, Duration.ZERO);
        var iid = open("pipelines-" + profile.settingName());
        clock.advance(CHECKING);

        var pipelines = gitlab.mergeRequestPipelines(PROJECT, iid);
        assertThat(pipelines).isNotEmpty();
        for (var pipeline : pipelines) {
            assertValid("public_api/v4/pipeline/basic.json", pipeline, "running");
            assertValid("changeflow/pipeline.json", pipeline, "running");
        }
    }

    /** The schema is checked to refuse too: a merge request without its head sha is no merge request GitLab answers. */
    @ParameterizedTest
    @EnumSource(Profile.class)
    void aMergeRequestMissingAFieldTheAdapterReadsIsRefused(Profile profile) {
        gitlab.setBehaviour(profile, false, Duration.ZERO);
        var json = new java.util.LinkedHashMap<>(gitlab.getMergeRequest(PROJECT, open("broken-" + profile.settingName()), true, false));
        json.remove("detailed_merge_status");
        json.put("sha", 7);

        var errors = errors("changeflow/merge_request.json", json);
        assertThat(errors).extracting(Error::getMessage)
                .anySatisfy(message -> assertThat(message).contains("detailed_merge_status"));
        assertThat(errors).extracting(error -> error.getInstanceLocation().toString())
                .anySatisfy(location -> assertThat(location).endsWith("sha"));
    }

    private void assertValid(String schema, Map<String, Object> answer, String what) {
        assertThat(errors(schema, answer)).as("%s against %s: %s", what, schema, answer).isEmpty();
    }

    private static List<Error> errors(String schema, Map<String, Object> answer) {
        return schema(schema).validate(JSON.valueToTree(answer));
    }

    private static Schema schema(String path) {
        return SCHEMAS.getSchema(SchemaLocation.of("classpath:gitlab-schemas/" + path));
    }

    private long open(String branch) {
        gitlab.createBranch(PROJECT, branch, "main", author);
        gitlab.commit(PROJECT, branch, "Change", null, false,
                List.of(Map.of("action", "create", "file_path", "grants/" + branch + ".txt", "content", "bob\n")), author);
        return (Long) gitlab.createMergeRequest(PROJECT, branch, "main", "Change " + branch, "ops", author).get("iid");
    }
}
