/**
 * The system-test harness: Changeflow instances as child processes ({@link io.changeflow.systemtest.harness.AppInstance})
 * on a real database, one shared {@link io.changeflow.systemtest.harness.SimulatorHost}, both held together per test
 * class by {@link io.changeflow.systemtest.harness.ChangeflowCluster}; an HTTP client speaking as a person
 * ({@link io.changeflow.systemtest.harness.ApiClient}), bounded waits ({@link io.changeflow.systemtest.harness.Poll})
 * and checks against the simulators' own records ({@link io.changeflow.systemtest.harness.Invariants}).
 * See {@code system-tests/README.md} for the tour.
 */
package io.changeflow.systemtest.harness;
