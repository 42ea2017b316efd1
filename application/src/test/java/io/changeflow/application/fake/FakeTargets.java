package io.changeflow.application.fake;

import io.changeflow.application.port.out.Targets;
import io.changeflow.domain.request.AskPolicy;
import io.changeflow.domain.request.PipelinePolicy;
import io.changeflow.domain.request.RemovalPolicy;
import io.changeflow.domain.request.Target;
import io.changeflow.domain.request.TargetKey;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@link Targets} in memory, with a standard catalog of one single and one batchable target. The standard targets let
 * anyone ask for anyone ({@link AskPolicy#ANYONE}), so workflow tests may name any subject; the tests of who may ask
 * for whom set the policy with {@link #withAskFor}.
 */
public final class FakeTargets implements Targets {

    public static final String PROJECT = "platform/access-config";
    /** Each request gets its own merge request. */
    public static final TargetKey SINGLE = TargetKey.of("db-prod-readonly");
    /** Approved requests wait for the next batch round. */
    public static final TargetKey BATCHABLE = TargetKey.of("wiki-editors");

    private final Map<TargetKey, Target> targets = new ConcurrentHashMap<>();

    public static FakeTargets standard() {
        var targets = new FakeTargets();
        targets.add(new Target(SINGLE, "Production database (read-only)", "Read access to the production database",
                PROJECT, "grants/" + SINGLE.value() + ".txt", false, null).withAskFor(AskPolicy.ANYONE));
        targets.add(new Target(BATCHABLE, "Wiki editors", "Edit rights on the team wiki",
                PROJECT, "grants/" + BATCHABLE.value() + ".txt", true, null).withAskFor(AskPolicy.ANYONE));
        return targets;
    }

    public void add(Target target) {
        targets.put(target.key(), target);
    }

    /** The target {@code key} from now on with the pipeline policy {@code pipeline} (the catalog's {@code .pipeline}). */
    public void withPipeline(TargetKey key, PipelinePolicy pipeline) {
        targets.computeIfPresent(key, (k, t) -> new Target(t.key(), t.name(), t.description(), t.project(), t.filePath(),
                t.batchable(), t.partition(), pipeline, t.removals(), t.askFor()));
    }

    /** The target {@code key} from now on with the removal setting {@code removals} (the catalog's {@code .removals}). */
    public void withRemovals(TargetKey key, RemovalPolicy removals) {
        targets.computeIfPresent(key, (k, t) -> new Target(t.key(), t.name(), t.description(), t.project(), t.filePath(),
                t.batchable(), t.partition(), t.pipeline(), removals, t.askFor()));
    }

    /** The target {@code key} from now on with the policy {@code askFor} (the catalog's {@code .ask-for}). */
    public void withAskFor(TargetKey key, AskPolicy askFor) {
        targets.computeIfPresent(key, (k, t) -> t.withAskFor(askFor));
    }

    public void remove(TargetKey key) {
        targets.remove(key);
    }

    @Override
    public List<Target> all() {
        return targets.values().stream().sorted(Comparator.comparing(t -> t.key().value())).toList();
    }

    @Override
    public Optional<Target> find(TargetKey key) {
        return Optional.ofNullable(targets.get(key));
    }
}
