package io.changeflow.application.recovery;

/** What an operator may do to a request in its current state (offered by the console). */
public enum OperatorAction {
    /** Re-run the step where it stopped ({@link RetriggerStep}). */
    RETRIGGER,
    /** Close it without merging, closing its merge request first ({@link CloseChangeRequest}). */
    CLOSE
}
