package io.changeflow.adapter.web.guard;

import io.changeflow.adapter.web.envelope.ErrorCode;
import io.changeflow.adapter.web.envelope.JsonResponses;
import io.changeflow.adapter.web.envelope.LogValues;
import io.changeflow.adapter.web.envelope.RequestTraceFilter;
import io.changeflow.adapter.web.identity.AuthorizationRules;
import io.changeflow.adapter.web.identity.CallerIdentity;
import io.changeflow.adapter.web.identity.OperatorParameters;
import io.changeflow.adapter.web.identity.PermissionChecks;
import io.changeflow.adapter.web.metrics.MeterNames;
import io.changeflow.adapter.web.metrics.SafeMeters;
import io.changeflow.application.port.out.AuditLog;
import io.changeflow.domain.identity.Identity;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Clock;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.web.servlet.HandlerInterceptor;
import org.springframework.web.servlet.HandlerMapping;

/**
 * Interceptor 2 of 3: authorization of the paths in the {@link AuthorizationRules} table
 * ({@code changeflow.authorization.rules}; by default {@code /ops/**} and {@code /sandbox/faults/**}
 * for operators, {@code /sim/approval/inbox/**} for approvers and operators), before argument
 * binding, so a malformed body on a protected path gets 401 or 403, never a 400 that pre-empts the
 * check. Access needs any one of the matching rule's codes, all checked in one
 * {@link io.changeflow.application.port.out.Permissions#granted} round trip ({@link PermissionChecks}).
 *
 * <p>Failure behaviour: authorization fails closed and reveals nothing.
 * <ul>
 *   <li>401 UNAUTHENTICATED: no readable login identity, or the login source failed.</li>
 *   <li>403 ACCESS_DENIED, message exactly "Access denied": an identity without any of the rule
 *       codes, an UNVERIFIED identity, a path no rule matches, or a permission service that throws,
 *       answers null, is slower than its deadline ({@code changeflow.permissions.timeout}) or whose
 *       bulkhead is full. The reason goes only to the log.</li>
 *   <li>Writes (POST, PUT, PATCH, DELETE) on a protected path: the client's parameters are copied,
 *       then the reserved {@code __authenticatedOperator} is overwritten with the login identity
 *       ({@link OperatorParameters}), and an audit entry with masked, truncated parameters is
 *       written. If the audit log fails, the write is refused with 503 UNAVAILABLE: no operator
 *       action without an audit trail.</li>
 * </ul>
 */
public final class AuthorizationInterceptor implements HandlerInterceptor {

    private static final Logger log = LoggerFactory.getLogger(AuthorizationInterceptor.class);
    private static final Set<String> WRITE_METHODS = Set.of("POST", "PUT", "PATCH", "DELETE");
    private static final int MAX_SUBJECT_LENGTH = 200;

    private final CallerIdentity identities;
    private final PermissionChecks permissions;
    private final AuthorizationRules rules;
    private final AuditLog auditLog;
    private final Clock clock;
    private final JsonResponses responses;
    private final SafeMeters meters;

    public AuthorizationInterceptor(CallerIdentity identities, PermissionChecks permissions, AuthorizationRules rules,
            AuditLog auditLog, Clock clock, JsonResponses responses, SafeMeters meters) {
        this.identities = identities;
        this.permissions = permissions;
        this.rules = rules;
        this.auditLog = auditLog;
        this.clock = clock;
        this.responses = responses;
        this.meters = meters;
    }

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) throws IOException {
        var caller = identities.current(request);
        if (!(caller instanceof CallerIdentity.Caller.Known(var identity))) {
            log.info("unauthenticated {} {}: {}", request.getMethod(), request.getRequestURI(), caller.getClass().getSimpleName());
            meters.increment(MeterNames.AUTHORIZATION_DENIED, Map.of("status", "401"));
            responses.writeError(request, response, ErrorCode.UNAUTHENTICATED);
            return false;
        }
        if (!identity.isVerified()) {
            return deny(request, response, identity, "unverified identity");
        }
        var refusal = permissionRefusal(request, identity);
        if (refusal != null) {
            return deny(request, response, identity, refusal);
        }
        if (WRITE_METHODS.contains(request.getMethod())) {
            var parameters = OperatorParameters.of(request.getParameterMap(), identity.account());
            request.setAttribute(OperatorParameters.ATTRIBUTE, parameters);
            if (!audit(request, identity, parameters)) {
                responses.writeError(request, response, ErrorCode.UNAVAILABLE);
                return false;
            }
        }
        return true;
    }

    /** Why {@code identity} may not pass, or null when it holds one of the matching rule's codes. Never throws. */
    private String permissionRefusal(HttpServletRequest request, Identity identity) {
        try {
            var ruleCodes = rules.ruleCodesFor(request);
            if (ruleCodes.isEmpty()) {
                return "no authorization rule matches the path";
            }
            var answer = permissions.check(identity, ruleCodes.get());
            if (answer instanceof PermissionChecks.Answer.Failed(var reason, var cause)) {
                log.warn("permission service failed ({}) for {}; access denied", reason, identity, cause);
                return "permission service " + reason;
            }
            return answer.heldOrNone().isEmpty() ? "none of " + ruleCodes.get() + " granted" : null;
        } catch (RuntimeException e) {
            log.warn("permission check failed for {}; access denied", identity, e);
            return "permission check failed";
        }
    }

    private boolean deny(HttpServletRequest request, HttpServletResponse response, Identity identity, String reason)
            throws IOException {
        log.info("access denied {} {} for {}: {}", request.getMethod(), request.getRequestURI(), identity, reason);
        meters.increment(MeterNames.AUTHORIZATION_DENIED, Map.of("status", "403"));
        responses.writeError(request, response, ErrorCode.ACCESS_DENIED);
        return false;
    }

    private boolean audit(HttpServletRequest request, Identity identity, OperatorParameters parameters) {
        try {
            var pattern = request.getAttribute(HandlerMapping.BEST_MATCHING_PATTERN_ATTRIBUTE);
            var action = request.getMethod() + " " + (pattern instanceof String p ? p : request.getRequestURI());
            auditLog.record(new AuditLog.Entry("http:" + RequestTraceFilter.traceId(request), identity.account(), action,
                    subject(request), parameters.forAudit(), clock.instant()));
            return true;
        } catch (RuntimeException e) {
            log.error("audit log failed for {} by {}; operations write refused", request.getRequestURI(), identity, e);
            return false;
        }
    }

    /**
     * The identifiers in the path (e.g. the operationId), else the path: what the entry is about. The path variables are
     * decoded ({@code %0A} is a line feed), so their control characters are escaped before they reach the audit log.
     */
    private static String subject(HttpServletRequest request) {
        var subject = request.getRequestURI();
        if (request.getAttribute(HandlerMapping.URI_TEMPLATE_VARIABLES_ATTRIBUTE) instanceof Map<?, ?> variables
                && !variables.isEmpty()) {
            subject = String.join(",", variables.values().stream().map(String::valueOf).toList());
        }
        subject = LogValues.escaped(subject);
        return subject.length() <= MAX_SUBJECT_LENGTH ? subject : subject.substring(0, MAX_SUBJECT_LENGTH);
    }
}
