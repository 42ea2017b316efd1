package io.changeflow.application.port.out;

/**
 * How long a unit of work may spend on the database in all, beyond the deadline of each round trip (issue 34). A
 * scope belongs to the thread that opened it and ends when closed; scopes do not nest (the inner one is ignored).
 * <ul>
 *   <li>{@link #apiRequest()}: an HTTP request. Every round trip of the request (pool wait aside) ends by one overall
 *       budget counted from the scope's start, so a request of many round trips on a slow database answers within
 *       the budget plus one pool wait; past it a round trip fails as {@link DatabaseUnavailable} (a statement past
 *       its deadline) and is never sent.</li>
 *   <li>{@link #longJob()}: a recurring job or a workflow step (reconciliation chunks, batch claims): waits longer
 *       for a pooled connection than an HTTP request does, so a pool busy for a moment does not cost the job its
 *       run.</li>
 * </ul>
 * Work outside any scope keeps the pool's own deadlines.
 */
public interface DatabaseBudgets {

    /** No budget beyond the pool's own deadlines (the persistence adapter's absence, tests). */
    DatabaseBudgets NONE = new DatabaseBudgets() {
        @Override
        public Scope apiRequest() {
            return () -> { };
        }

        @Override
        public Scope longJob() {
            return () -> { };
        }
    };

    /** Opens the budget of an HTTP request on this thread. */
    Scope apiRequest();

    /** Opens the pool wait of a long job on this thread. */
    Scope longJob();

    /** An open budget; closing it ends it (idempotent). */
    interface Scope extends AutoCloseable {
        @Override
        void close();
    }
}
