package io.changeflow.adapter.web;

import io.changeflow.application.drift.ActOnDrift;
import io.changeflow.domain.drift.DriftItem;
import io.changeflow.domain.request.OperationId;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/** The workflow's removal of a drift item's line as the web tests see it: each opened removal gets a fresh ID. */
final class DriftRemovals implements ActOnDrift.LineRemoval {

    final List<DriftItem> opened = new ArrayList<>();

    @Override
    public synchronized Optional<OperationId> open(DriftItem item, String actor, String reason) {
        opened.add(item);
        return Optional.of(OperationId.of(UUID.randomUUID().toString()));
    }
}
