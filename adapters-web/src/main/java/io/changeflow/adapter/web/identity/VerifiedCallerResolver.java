package io.changeflow.adapter.web.identity;

import io.changeflow.adapter.web.envelope.ApiException;
import io.changeflow.adapter.web.envelope.ErrorCode;
import io.changeflow.domain.identity.Identity;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.core.MethodParameter;
import org.springframework.web.bind.support.WebDataBinderFactory;
import org.springframework.web.context.request.NativeWebRequest;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.method.support.ModelAndViewContainer;

/**
 * Resolves a handler parameter of type {@link Identity} to the caller, who must be VERIFIED: no
 * readable identity (or a failing login source) is 401 UNAUTHENTICATED, an UNVERIFIED one (an
 * employee ID the directory does not know) 403 ACCESS_DENIED. Spring resolves parameters in
 * declaration order, so declaring the identity before {@code @RequestBody} decides 401/403 before
 * the body is read: a malformed body from an anonymous caller is 401, not 400.
 */
public final class VerifiedCallerResolver implements HandlerMethodArgumentResolver {

    private final CallerIdentity identities;

    public VerifiedCallerResolver(CallerIdentity identities) {
        this.identities = identities;
    }

    @Override
    public boolean supportsParameter(MethodParameter parameter) {
        return parameter.getParameterType() == Identity.class;
    }

    @Override
    public Identity resolveArgument(MethodParameter parameter, ModelAndViewContainer mavContainer, NativeWebRequest webRequest,
            WebDataBinderFactory binderFactory) {
        var request = webRequest.getNativeRequest(HttpServletRequest.class);
        var caller = request == null ? new CallerIdentity.Caller.Anonymous() : identities.current(request);
        if (!(caller instanceof CallerIdentity.Caller.Known(var identity))) {
            throw ApiException.of(ErrorCode.UNAUTHENTICATED, "no readable identity: " + caller.getClass().getSimpleName());
        }
        if (!identity.isVerified()) {
            throw ApiException.of(ErrorCode.ACCESS_DENIED, "unverified identity " + identity);
        }
        return identity;
    }
}
