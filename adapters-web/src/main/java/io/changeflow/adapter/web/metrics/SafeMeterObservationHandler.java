package io.changeflow.adapter.web.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.observation.Observation;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Micrometer's meter handler for observations (Boot's {@code http.server.requests} and every other
 * observation), made unable to throw. Without it a registry that throws escapes from Spring's
 * observation filter and turns every answer into a 500: exactly the "depends on the metrics library
 * not throwing" limitation of the design. Boot's own handler backs off when this bean exists.
 */
public final class SafeMeterObservationHandler extends DefaultMeterObservationHandler {

    private static final Logger log = LoggerFactory.getLogger(SafeMeterObservationHandler.class);

    public SafeMeterObservationHandler(MeterRegistry registry) {
        super(registry);
    }

    @Override
    public void onStart(Observation.Context context) {
        guarded(context, () -> super.onStart(context));
    }

    @Override
    public void onStop(Observation.Context context) {
        guarded(context, () -> super.onStop(context));
    }

    @Override
    public void onEvent(Observation.Event event, Observation.Context context) {
        guarded(context, () -> super.onEvent(event, context));
    }

    /** Runs one step of the default handler; a failure is logged, never thrown into the request. */
    private static void guarded(Observation.Context context, Runnable step) {
        try {
            step.run();
        } catch (RuntimeException e) {
            failed(context, e);
        }
    }

    private static void failed(Observation.Context context, RuntimeException e) {
        log.debug("observation metric {} failed; the request continues unaffected", context.getName(), e);
    }
}
