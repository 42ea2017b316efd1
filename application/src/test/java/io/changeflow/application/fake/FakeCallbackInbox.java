package io.changeflow.application.fake;

import io.changeflow.application.port.out.CallbackInbox;
import io.changeflow.domain.operation.MergeRequestRef;
import io.changeflow.domain.request.OperationId;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.stream.Collectors;

/**
 * {@link CallbackInbox} in memory; thread-safe (the unique key is the set). Every report is stored;
 * only {@link CallbackInbox#IN_EFFECT} reports count as deployed (watermark, named operations).
 */
public final class FakeCallbackInbox implements CallbackInbox {

    /** A stored deploy report. */
    public record DeployReport(String deliveryId, String project, long mrIid, String status, List<OperationId> operationIds) {
        boolean inEffect() {
            return CallbackInbox.IN_EFFECT.equals(status);
        }
    }

    private final Set<String> deliveries = new java.util.LinkedHashSet<>();
    private final List<DeployReport> deploys = new ArrayList<>();
    private BiFunction<String, Long, Optional<Long>> mergeOrders = (project, iid) -> Optional.empty();

    @Override
    public synchronized boolean firstDelivery(String source, String deliveryId) {
        return deliveries.add(source + "/" + deliveryId);
    }

    @Override
    public synchronized void forget(String source, String deliveryId) {
        deliveries.remove(source + "/" + deliveryId);
    }

    /** Deliveries carry no time here: forgetting by age forgets a source's deliveries in the order they came. */
    @Override
    public synchronized int forgetDeliveries(String source, java.time.Duration olderThan, int limit) {
        var forgotten = deliveries.stream().filter(key -> key.startsWith(source + "/")).limit(limit).toList();
        forgotten.forEach(deliveries::remove);
        return forgotten.size();
    }

    @Override
    public synchronized void recordDeploy(String deliveryId, String project, long mrIid, String status,
                                          List<OperationId> operationIds) {
        if (deploys.stream().noneMatch(d -> d.deliveryId().equals(deliveryId))) {
            deploys.add(new DeployReport(deliveryId, project, mrIid, status, List.copyOf(operationIds)));
        }
    }

    @Override
    public synchronized OptionalLong largestDeployedIid(String project) {
        return deploys.stream().filter(DeployReport::inEffect).filter(d -> d.project().equals(project))
                .mapToLong(DeployReport::mrIid).max();
    }

    @Override
    public synchronized Set<OperationId> deployedOperations(Collection<OperationId> ids) {
        var named = deploys.stream().filter(DeployReport::inEffect).flatMap(d -> d.operationIds().stream())
                .collect(Collectors.toSet());
        return ids.stream().filter(named::contains).collect(Collectors.toUnmodifiableSet());
    }

    @Override
    public synchronized Set<MergeRequestRef> reportedWithoutOperationIds(Collection<MergeRequestRef> mergeRequests) {
        return mergeRequests.stream()
                .filter(mr -> deploys.stream().anyMatch(d -> d.inEffect() && d.operationIds().isEmpty()
                        && d.project().equals(mr.project()) && d.mrIid() == mr.iid()))
                .collect(Collectors.toUnmodifiableSet());
    }

    @Override
    public synchronized OptionalLong latestReportedMergeOrder(String project, long notBelow, Reports reports) {
        return deploys.stream()
                .filter(DeployReport::inEffect)
                .filter(d -> d.project().equals(project))
                .filter(d -> reports == Reports.ALL || d.operationIds().isEmpty())
                .map(d -> mergeOrders.apply(d.project(), d.mrIid()))
                .flatMap(Optional::stream)
                .mapToLong(Long::longValue)
                .filter(order -> order >= notBelow)
                .max();
    }

    /** Where merge orders come from (the operations fake records them), as the adapter joins them. */
    public synchronized void resolveMergeOrders(BiFunction<String, Long, Optional<Long>> lookup) {
        mergeOrders = lookup;
    }

    public synchronized List<DeployReport> deploys() {
        return List.copyOf(deploys);
    }
}
