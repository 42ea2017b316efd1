package io.changeflow.application.port.out;

import io.changeflow.domain.drift.Evidence;
import java.util.Map;

/**
 * Where the lines of a file came from: GitLab's blame of the file at one commit (issue 36, a drift item's evidence).
 * One call per file, made through the workflow's GitLab calls (counted in the shared GitLab call budget).
 */
public interface LineOrigins {

    /**
     * For each line of {@code path} at {@code ref} (stripped, as drift detection reads them; the first of equal lines):
     * the commit that last changed it, its author and when. Empty when the file does not exist at {@code ref}.
     *
     * @throws ExternalCallException when GitLab could not be asked (the caller stores the item without evidence)
     */
    Map<String, Evidence> of(String project, String ref, String path);
}
