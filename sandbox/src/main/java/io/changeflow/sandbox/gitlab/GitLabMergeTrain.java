package io.changeflow.sandbox.gitlab;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * A project's merge train as far as a merge from outside the train touches it (GitLab Premium, read at
 * gitlab-org/gitlab 17.x to 19.1-pre):
 * <ul>
 * <li>{@code PUT .../merge} takes {@code skip_merge_train} (ee/lib/ee/api/merge_requests.rb,
 * {@code optional_merge_params_ee}, handed to the merge service through {@code ci_params});</li>
 * <li>the merge service skips the train only where the project allows it:
 * {@code skipping_active_merge_train?} is {@code params[:skip_merge_train] && project.merge_trains_skip_train_allowed?}
 * (ee/app/services/ee/merge_requests/merge_service.rb); then a "skip merged" car is recorded for the merge
 * ({@code MergeTrains::Car.insert_skip_merged_car_for}, ee/app/models/merge_trains/car.rb) and the cars on the train
 * keep their pipelines;</li>
 * <li>otherwise (no parameter, or skipping not allowed: no error, the merge happens) the target branch moved under
 * the train, and the train's refresh (ee/app/services/merge_trains/refresh_merge_request_service.rb, the target's new
 * head not in any car's history) recreates every car's pipeline: the train restarts
 * (doc/ci/pipelines/merge_trains.md, "Skip the merge train and merge immediately").</li>
 * </ul>
 * The cars are put on by {@link GitLabSimulator#addToMergeTrain} (a person's "Set to auto-merge"); their pipelines never
 * finish here and nothing leaves the train by itself.
 */
final class GitLabMergeTrain {

    /** One merge request on the train: its train pipeline and how often that pipeline was recreated. */
    record Car(long id, long iid, long pipelineId, int restarts) {}

    private final Map<Long, Car> cars = new LinkedHashMap<>();
    private long nextCarId = 1;

    /** Puts {@code iid} at the end of the train (once) with a new pipeline. */
    void add(long iid, LongSupplier newPipelineId) {
        cars.computeIfAbsent(iid, ignored -> new Car(nextCarId++, iid, newPipelineId.getAsLong(), 0));
    }

    /**
     * A merge into the train's target branch from outside the train ({@code iid}): with {@code skipped} (the parameter
     * sent and allowed by the project) the cars keep their pipelines; otherwise each car's pipeline is recreated. A
     * merged car leaves the train either way.
     */
    void mergedOutside(long iid, boolean skipped, LongSupplier newPipelineId) {
        cars.remove(iid);
        if (skipped) {
            return;
        }
        cars.replaceAll((key, car) -> new Car(car.id(), car.iid(), newPipelineId.getAsLong(), car.restarts() + 1));
    }

    List<Car> cars() {
        return List.copyOf(new ArrayList<>(cars.values()));
    }
}
