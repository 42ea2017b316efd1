package io.changeflow.application.port.out;

import io.changeflow.domain.identity.EmployeeDirectory;

/**
 * The company directory: maps employee IDs to accounts for the identity resolver, and tells who relates to whom for
 * the {@code related} policy of who may ask for whom. May throw when down.
 */
public interface Directory extends EmployeeDirectory {

    /**
     * Whether the directory relates {@code requester} to {@code subject} (both canonical accounts): one is the other's
     * manager, or both are on one team. False when it knows no such relation, which is the default: a directory that
     * tells no relations lets a {@code related} target be asked for oneself only.
     */
    default boolean relates(String requester, String subject) {
        return false;
    }
}
