package io.changeflow.systemtest.harness;

import java.nio.file.Files;
import java.nio.file.Path;

/** The executable jar under test: {@code bootstrap/target/changeflow.jar} after {@code ./mvnw package}. */
public final class ChangeflowJar {

    /** The system property naming the jar; this module's pom sets it. */
    public static final String PROPERTY = "changeflow.jar";

    private ChangeflowJar() {
    }

    /**
     * The jar named by {@value #PROPERTY}, else {@code ../bootstrap/target/changeflow.jar} from the
     * working directory (the module's folder under Maven).
     *
     * @throws IllegalStateException with what to do when the jar is missing
     */
    public static Path locate() {
        var configured = System.getProperty(PROPERTY);
        var jar = (configured == null || configured.isBlank()
                ? Path.of("..", "bootstrap", "target", "changeflow.jar")
                : Path.of(configured)).toAbsolutePath().normalize();
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("The executable jar " + jar + " does not exist. Package the application "
                    + "first (./mvnw -DskipTests package, or run the whole build: ./mvnw verify), or point -D"
                    + PROPERTY + "=<path to changeflow.jar> at one.");
        }
        return jar;
    }
}
