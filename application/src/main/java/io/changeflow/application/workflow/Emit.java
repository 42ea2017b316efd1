package io.changeflow.application.workflow;

import java.lang.System.Logger.Level;

/**
 * Observability never changes an outcome: metric emissions run through here, and whatever they
 * throw is logged and dropped.
 */
public final class Emit {

    private static final System.Logger LOG = System.getLogger(Emit.class.getName());

    private Emit() {
    }

    public static void quietly(String metric, Runnable emission) {
        try {
            emission.run();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "metric " + metric + " failed; the business outcome stands", e);
        }
    }
}
