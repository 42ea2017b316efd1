package io.changeflow.application.simulation;

import io.changeflow.application.fake.FakeTargets;
import io.changeflow.application.port.out.ExternalCallException;
import io.changeflow.application.fake.ManualWorkQueue;
import io.changeflow.application.port.out.WorkQueue.StepKind;
import io.changeflow.application.workflow.MergeRequestTexts;
import io.changeflow.domain.request.GrantFile;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.request.SubjectId;
import io.changeflow.domain.request.Grant;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The moves of the wider world (issue 30) on a {@link SimWorld}: GitLab's rate limit, a person deleting a request's
 * branch or editing a grant file on main by hand, a second instance whose clock is apart, and an instance killed inside
 * a step or a job.
 *
 * <p>Two instances share every fake (the database, GitLab, the approval system, the durable queue) and differ in their
 * clock. The world keeps one clock, read by the use cases and by the fakes; while the second instance acts the world
 * moves that clock by the instance's skew and moves it back afterwards, so its steps are due by its own clock (as
 * db-scheduler compares execution times with the picking instance's clock) and the times it computes and writes carry
 * its skew (the fakes then stand in for rows written with its clock, including the rows the real adapters stamp with
 * the database clock: a simplification on the side of more skew, not less).
 */
final class SimWiderWorld {

    /**
     * When another instance takes over a step whose instance died: the scheduler's default dead-execution timeout
     * ({@code changeflow.scheduler.dead-execution-timeout}, see adapters-scheduler {@code SettingsTest}).
     */
    static final Duration DEAD_EXECUTION_TIMEOUT = Duration.ofSeconds(60);
    /** The bound of the clock skew between the two instances, either way. */
    static final Duration MAX_SKEW = Duration.ofSeconds(5);

    private final SimWorld world;
    /** How far the second instance's clock is ahead of the first's (negative: behind). */
    final Duration skew;
    /** The grant files a person edited on main. */
    final Set<String> handEdited = new LinkedHashSet<>();
    /** How many branches a person deleted. */
    int branchesDeleted;
    private int edits;

    SimWiderWorld(SimWorld world, Duration skew) {
        this.world = world;
        this.skew = skew;
    }

    /** The skew of {@code seed}'s second instance: up to {@link #MAX_SKEW} either way, to the millisecond. */
    static Duration skewOf(long seed) {
        var bound = MAX_SKEW.toMillis();
        return Duration.ofMillis(Math.floorMod(seed * 0x9E3779B97F4A7C15L >>> 16, 2 * bound + 1) - bound);
    }

    /**
     * GitLab's rate limit: {@code 429 Too Many Requests} with {@code Retry-After} in seconds (Rack::Attack's throttled
     * response, {@code lib/gitlab/rack_attack.rb} in gitlabhq/gitlabhq; docs/external-systems-gitlab.md, "Rate limits"),
     * as the adapter translates it ({@code GitLabCalls#translate}): HTTP_STATUS 429 carrying the wait. The waits include
     * none at all and an hour (the step's bounds, 1 s and 10 min, apply).
     */
    String rateLimit(SimAction action) {
        var method = SimWorld.GITLAB_METHODS.get(action.pick() % SimWorld.GITLAB_METHODS.size());
        var seconds = List.of(0L, 1L, 5L, 30L, 60L, 3600L).get(action.arg() % 6);
        var times = 1 + (action.arg() >> 4) % 3;
        world.app.gitlab.failNext(method, times, () -> new ExternalCallException("gitlab", ExternalCallException.Kind.HTTP_STATUS,
                429, method + ": HTTP 429, GitLab asks to wait " + seconds + " s", null, Duration.ofSeconds(seconds)));
        world.stats.fault("gitlab " + method + " 429");
        return "gitlab answers the next " + times + " " + method + " with 429, Retry-After " + seconds;
    }

    /** A person deletes the branch of one of the requests (or of a batch), whatever state it is in. */
    String deleteBranch(SimAction action) {
        var branches = world.app.operations.all().stream().map(op -> MergeRequestTexts.branchOf(op.id()))
                .filter(b -> world.app.gitlab.hasBranch(FakeTargets.PROJECT, b)).toList();
        if (branches.isEmpty()) {
            return "no branch to delete";
        }
        var branch = branches.get(action.pick() % branches.size());
        world.app.gitlab.deleteBranchExternally(FakeTargets.PROJECT, branch);
        branchesDeleted++;
        world.stats.fault("branch deleted by a person");
        return "a person deleted branch " + branch;
    }

    /**
     * A person edits a grant file on main by hand (docs/workflow.md, "The grant file"): another until or another
     * operation on a line, a line removed, or a line added for a subject nobody approved.
     */
    String handEdit(SimAction action) {
        var target = SimWorld.TARGETS.get(action.pick() % SimWorld.TARGETS.size());
        var path = world.app.targets.find(target).orElseThrow().filePath();
        var file = world.app.gitlab.fileOn(FakeTargets.PROJECT, "main", path).map(c -> GrantFile.parse(target, c))
                .orElse(GrantFile.missing(target));
        var subject = SubjectId.of(SimWorld.SUBJECTS.get((action.pick() >> 4) % SimWorld.SUBJECTS.size()));
        var line = file.grantOf(subject);
        var edit = action.arg() % 4;
        GrantFile edited;
        String what;
        if (line.isEmpty() || edit == 3) {
            edited = file.with(new Grant(subject, Optional.empty(), handOperation()));
            what = "added a line nobody approved for " + subject.value();
        } else if (edit == 0) {
            var until = world.app.clock.instant().plus(Duration.ofHours(1 + (action.arg() >> 4) % 48));
            edited = file.with(new Grant(subject, Optional.of(until), line.get().operationId()));
            what = "changed the until of " + subject.value() + " to " + until;
        } else if (edit == 1) {
            edited = file.with(new Grant(subject, line.get().until(), handOperation()));
            what = "changed the op of " + subject.value();
        } else {
            edited = file.without(List.of(line.get()));
            what = "removed the line of " + subject.value();
        }
        world.app.gitlab.commitExternally(FakeTargets.PROJECT, "main", path, edited.render());
        handEdited.add(target.value());
        world.stats.fault("hand edit on main");
        return "a person edited " + path + " on main: " + what;
    }

    private OperationId handOperation() {
        return OperationId.of(String.format("0e0e0000-0000-4000-8000-%012d", ++edits));
    }

    /** The second instance runs a due step (by its clock) or a recurring job. */
    String secondInstance(SimAction action) {
        return "second instance: " + asSecond(() -> action.arg() % 2 == 0 ? world.runStep(action.pick())
                : world.job(action.arg() >> 1));
    }

    /** {@code body} as the second instance: the world's clock moved by its skew while it runs. */
    String asSecond(Supplier<String> body) {
        return withClockMoved(skew, body);
    }

    /** {@code body} with the world's clock moved by {@code by} while it runs. */
    private String withClockMoved(Duration by, Supplier<String> body) {
        var clock = world.app.clock;
        clock.set(clock.instant().plus(by));
        try {
            return body.get();
        } finally {
            clock.set(clock.instant().minus(by));
        }
    }

    /**
     * One instance (even {@code pick}: the first) is killed inside the step it would run next (even {@code arg}) or
     * inside a recurring job (odd), before its n-th call of GitLab or before its first state write: nothing after that
     * point happens, nothing is written for it, and the step's task stays picked by the dead instance until another
     * instance takes it over after {@link #DEAD_EXECUTION_TIMEOUT} (db-scheduler's dead-execution detection). A batch
     * step's and a job's writes may be one transaction of the batch adapter, which the in-memory batches do not model
     * piecewise: those are killed at a GitLab call only (no transaction is held across one).
     */
    String instanceCrash(SimAction action) {
        var first = action.pick() % 2 == 0;
        Supplier<String> crash = (action.arg() >> 8) % 3 == 0 && action.arg() % 2 == 0 ? () -> hangInside(action, first)
                : () -> crashInside(action);
        return "instance " + (first ? "1: " + crash.get() : "2: " + asSecond(crash));
    }

    /**
     * The instance ({@code first}: the first) hangs inside the step it would run next, before its n-th call of GitLab or
     * before its first state write, for longer than {@link #DEAD_EXECUTION_TIMEOUT} (a frozen VM or container, a long
     * stop-the-world pause: its heartbeats stop too). The other instance takes the step over and runs it to its end
     * ({@link io.changeflow.application.fake.ManualWorkQueue#takeOver}); then the hung instance wakes and carries on
     * from where it stopped, with what it had read before, its clock moved on. Two instances have run one step. A
     * batch step hangs at a GitLab call only (its writes are one transaction of the batch adapter, and no transaction is
     * held across a GitLab call). Both runs are on this thread: the survivor's run happens inside the hung run's port
     * call, before that call reads anything, so the interleaving replays exactly.
     */
    private String hangInside(SimAction action, boolean first) {
        var next = world.nextStep(action.pick()).map(ManualWorkQueue.Pending::step);
        if (next.isEmpty()) {
            return "no step waits";
        }
        var batchStep = next.filter(s -> s.kind() == StepKind.BATCH || s.kind() == StepKind.SETTLE_BATCH).isPresent();
        var calls = (action.arg() >> 2) % 5;
        var atWrite = calls == 0 && !batchStep;
        var remaining = new int[] {atWrite ? 0 : Math.max(1, calls) - 1};
        var survivor = new String[1];
        Runnable hang = () -> {
            world.app.gitlab.beforeEveryCall(null);
            world.app.operations.beforeNextWrite(null);
            var taken = world.app.queue.takeOver(DEAD_EXECUTION_TIMEOUT);
            survivor[0] = taken.map(step -> {
                world.stats.fault("instance hung inside a step and taken over");
                Supplier<String> run = () -> world.app.queue.run(step.kind(), step.ref()) ? "ran it" : "found it gone";
                return "taken over by instance " + (first ? "2: " + asSecond(run) : "1: " + asFirst(run));
            }).orElse("nothing running to take over");
        };
        if (atWrite) {
            world.app.operations.beforeNextWrite(hang);
        } else {
            world.app.gitlab.beforeEveryCall(() -> {
                if (remaining[0]-- == 0) {
                    hang.run();
                }
            });
        }
        var where = atWrite ? "before its first state write" : "before GitLab call " + (remaining[0] + 1);
        try {
            var done = world.runStep(action.pick());
            return survivor[0] == null ? done + "; the hang " + where + " came after it ended"
                    : "hung " + where + " in " + next.get().kind() + " " + next.get().ref() + ", " + survivor[0]
                    + "; then it woke and ended its run";
        } finally {
            world.app.gitlab.beforeEveryCall(null);
            world.app.operations.beforeNextWrite(null);
        }
    }

    /** {@code body} as the first instance while the second acts: the second's skew taken off the world's clock. */
    private String asFirst(Supplier<String> body) {
        return withClockMoved(skew.negated(), body);
    }
    private String crashInside(SimAction action) {
        var inStep = action.arg() % 2 == 0;
        var next = world.nextStep(action.pick()).map(ManualWorkQueue.Pending::step);
        if (inStep && next.isEmpty()) {
            return "no step waits";
        }
        var batchStep = next.filter(s -> s.kind() == StepKind.BATCH || s.kind() == StepKind.SETTLE_BATCH).isPresent();
        var calls = (action.arg() >> 2) % 5;
        var atWrite = calls == 0 && inStep && !batchStep;
        var remaining = new int[] {atWrite ? calls : Math.max(1, calls) - 1};
        world.app.gitlab.beforeEveryCall(() -> {
            if (remaining[0]-- == 0) {
                throw new SimulatedKill();
            }
        });
        if (atWrite) {
            world.app.operations.beforeNextWrite(() -> {
                throw new SimulatedKill();
            });
        }
        var where = atWrite ? "before its first GitLab call or state write" : "before GitLab call " + (remaining[0] + 1);
        try {
            var done = inStep ? world.runStep(action.pick()) : world.job(action.arg() >> 4);
            return done + "; the kill " + where + " came after it ended";
        } catch (SimulatedKill kill) {
            world.stats.fault("instance killed inside a " + (inStep ? "step" : "job"));
            if (!inStep) {
                return "killed " + where + " in a job";
            }
            var step = next.orElseThrow();
            // the queue put it back for its failure policy; the survivor takes it over after the timeout
            world.app.queue.pending(step.kind(), step.ref())
                    .ifPresent(p -> world.app.queue.schedule(p.step(), DEAD_EXECUTION_TIMEOUT));
            return "killed " + where + " in " + step.kind() + " " + step.ref() + ", taken over after " + DEAD_EXECUTION_TIMEOUT;
        } finally {
            world.app.gitlab.beforeEveryCall(null);
            world.app.operations.beforeNextWrite(null);
        }
    }

    /** A killed process: an {@link Error}, so no safety net writes a failure for it (nothing runs after a SIGKILL). */
    static final class SimulatedKill extends Error {
        SimulatedKill() {
            super("simulated SIGKILL", null, false, false);
        }
    }
}
