package io.changeflow.adapter.web.api;

import io.changeflow.adapter.web.envelope.ApiException;
import io.changeflow.adapter.web.envelope.ApiResponse;
import io.changeflow.adapter.web.envelope.ErrorCode;
import io.changeflow.adapter.web.identity.AccessGate;
import io.changeflow.adapter.web.identity.AuthorizationRules;
import io.changeflow.adapter.web.identity.CallerIdentity;
import io.changeflow.adapter.web.identity.PermissionChecks;
import io.changeflow.application.query.ListMyBindings;
import io.changeflow.application.query.ListTargets;
import io.changeflow.domain.identity.Identity;
import io.changeflow.domain.request.GrantDurations;
import io.changeflow.domain.request.Target;
import jakarta.servlet.http.HttpServletRequest;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The signed-in person: who am I and what may I do ({@code GET /api/me}), the catalog a request can
 * name ({@code GET /api/targets}) and my subject-target relationships ({@code GET /api/bindings}).
 */
@RestController
public final class UserController {

    /**
     * @param verified        false for an employee ID the directory does not know (may not submit or see requests)
     * @param permissions     the rule codes of the authorization table the person holds, sorted; empty when the
     *                        permission service failed (fail closed)
     * @param sandbox         whether this is the embedded default run (demo sign-in available)
     * @param submissionsOpen whether the access mode accepts submissions right now
     */
    record MeJson(String account, boolean verified, List<String> permissions, boolean sandbox, boolean submissionsOpen) {}

    /** One entry of the catalog. */
    /**
     * @param maxDuration     the longest grant a request may ask for (ISO-8601, e.g. {@code P30D}); null: up to 366 days
     * @param defaultDuration what a request without an end gets (ISO-8601); null: the maximum, or no end
     * @param allowsNever     whether a request may name no end and get a grant without end
     * @param allowsDurations whether a request may ask for a {@code duration} counted from when its approved line is
     *                        written instead of an end (issue 32 item 3)
     */
    record TargetJson(String key, String name, String description, boolean batchable, @Nullable String maxDuration,
                      @Nullable String defaultDuration, boolean allowsNever, boolean allowsDurations) {

        static TargetJson of(Target t) {
            var durations = t.durations();
            return new TargetJson(t.key().value(), t.name(), t.description(), t.batchable(),
                    durations.max().map(GrantDurations::iso).orElse(null),
                    durations.defaultDuration().map(GrantDurations::iso).orElse(null), durations.allowsNever(),
                    durations.durationsAllowed());
        }
    }

    private static final Logger log = LoggerFactory.getLogger(UserController.class);

    private final CallerIdentity identities;
    private final PermissionChecks permissions;
    private final AuthorizationRules rules;
    private final AccessGate accessGate;
    private final ListTargets targets;
    private final ListMyBindings bindings;
    private final boolean sandbox;

    public UserController(CallerIdentity identities, PermissionChecks permissions, AuthorizationRules rules, AccessGate accessGate,
            ListTargets targets, ListMyBindings bindings, boolean sandbox) {
        this.identities = identities;
        this.permissions = permissions;
        this.rules = rules;
        this.accessGate = accessGate;
        this.targets = targets;
        this.bindings = bindings;
        this.sandbox = sandbox;
    }

    /** Answers unverified callers too (with {@code verified: false}); 401 only when nothing identifies the caller. */
    @Answers(summary = "Who am I and what may I do", errors = ErrorCode.UNAUTHENTICATED)
    @GetMapping("/api/me")
    ApiResponse<MeJson> me(HttpServletRequest request) {
        if (!(identities.current(request) instanceof CallerIdentity.Caller.Known(var identity))) {
            throw ApiException.of(ErrorCode.UNAUTHENTICATED, "GET /api/me without a readable identity");
        }
        var answer = permissions.check(identity, rules.allRuleCodes());
        if (answer instanceof PermissionChecks.Answer.Failed(var reason, var cause)) {
            log.warn("permission service failed ({}) for {}; /api/me lists no permissions", reason, identity, cause);
        }
        return ApiResponse.ok(new MeJson(identity.account(), identity.isVerified(),
                answer.heldOrNone().stream().sorted().toList(), sandbox, accessGate.isOpen()));
    }

    @Answers(summary = "The catalog of targets")
    @GetMapping("/api/targets")
    ApiResponse<List<TargetJson>> targets(Identity caller) {
        return ApiResponse.ok(targets.list(new ListTargets.Command()).stream()
                .map(TargetJson::of)
                .toList());
    }

    @Answers(summary = "My subject-target relationships")
    @GetMapping("/api/bindings")
    ApiResponse<List<RequestJson.BindingJson>> bindings(Identity caller) {
        return ApiResponse.ok(bindings.list(new ListMyBindings.Command(caller.account())).stream()
                .map(RequestJson.BindingJson::of)
                .toList());
    }
}
