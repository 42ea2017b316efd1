package io.changeflow.domain.request;

import java.util.Optional;

/**
 * Whether the removal of a grant of a target (its expiry, an operator's revocation) needs the approval system
 * ({@code changeflow.catalog.targets[n].removals}, issue 18). A holder giving up their own grant never asks. The
 * fail-safe is {@link #NO_APPROVAL}: the grant was approved until its end, so the end is the decision already made;
 * asking again can only keep access open longer (least privilege wins over the risk of removing access by mistake,
 * which a renewal or a new request repairs).
 */
public enum RemovalPolicy {

    /** The default: a removal goes straight to the removal round of its file. */
    NO_APPROVAL,

    /**
     * An expiry or an operator's revocation is sent to the approval system first; approved, it joins the removal
     * round; rejected, withdrawn or undecided by the approval deadline, the grant stays in effect (REMOVAL_REJECTED).
     */
    APPROVAL;

    /** The value as configured: {@code no-approval}, {@code approval}. */
    public String settingName() {
        return SettingNames.of(this);
    }

    public boolean asksApproval() {
        return this == APPROVAL;
    }

    /**
     * The policy {@code raw} names (case and surrounding whitespace ignored, {@code _} read as {@code -}); empty for a
     * missing, blank or unknown value (the caller applies {@link #NO_APPROVAL} and may say so).
     */
    public static Optional<RemovalPolicy> named(String raw) {
        return SettingNames.named(values(), raw);
    }

    /** The policy {@code raw} names, or {@link #NO_APPROVAL} when it names none (missing, blank, garbled). */
    public static RemovalPolicy parse(String raw) {
        return named(raw).orElse(NO_APPROVAL);
    }
}
