package io.changeflow.adapter.web.api;

import io.changeflow.adapter.web.envelope.ApiException;
import io.changeflow.adapter.web.envelope.ApiResponse;
import io.changeflow.adapter.web.envelope.ErrorCode;
import io.changeflow.adapter.web.identity.CallerIdentity;
import io.changeflow.application.port.out.DemoPeople;
import io.changeflow.domain.request.FieldError;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseCookie;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/**
 * Sandbox only ({@code changeflow.sandbox.demo-login=true}, set by the sandbox profile alone): the
 * SPA signs in as one of the demo directory's people. The {@code cf_demo_user} cookie (HttpOnly,
 * SameSite=Lax) then stands in for {@code X-Forwarded-User} when no identity header is present.
 * Without the property this controller does not exist and the cookie is ignored.
 */
@RestController
public final class DemoLoginController {

    /** The login form. */
    record LoginForm(String user) {}

    /** A demo user as the SPA lists them. */
    record DemoUser(String account, @Nullable String employeeId, @Nullable String email, @Nullable String role) {}

    /** Who signed in. */
    record SignedInJson(String account) {}

    private final DemoPeople directory;

    public DemoLoginController(DemoPeople directory) {
        this.directory = directory;
    }

    @Answers(summary = "The demo people (sandbox)")
    @GetMapping("/sandbox/demo-users")
    ApiResponse<List<DemoUser>> demoUsers() {
        return ApiResponse.ok(directory.people().stream()
                .map(p -> new DemoUser(p.account(), p.employeeId(), p.email(), p.role()))
                .toList());
    }

    @Answers(summary = "Sign in as a demo person (sandbox)", codes = "SIGNED_IN")
    @PostMapping(path = "/sandbox/login", consumes = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<ApiResponse<SignedInJson>> login(@RequestBody LoginForm form) {
        var person = form == null || form.user() == null ? null : directory.byAccount(form.user()).orElse(null);
        if (person == null) {
            throw new ApiException(ErrorCode.INVALID_REQUEST, "No demo user with this name.",
                    Map.of("fieldErrors", List.of(new FieldError("user", "UNKNOWN_USER", "No demo user with this name."))),
                    "demo login for an unknown user");
        }
        var cookie = ResponseCookie.from(CallerIdentity.DEMO_COOKIE, person.account())
                .httpOnly(true).sameSite("Lax").path("/").build();
        return ResponseEntity.ok()
                .header(HttpHeaders.SET_COOKIE, cookie.toString())
                .body(ApiResponse.of("SIGNED_IN", "Signed in as " + person.account() + ".", new SignedInJson(person.account())));
    }

    @Answers(summary = "Sign out (sandbox)", codes = "SIGNED_OUT")
    @PostMapping("/sandbox/logout")
    ResponseEntity<ApiResponse<Void>> logout() {
        var cookie = ResponseCookie.from(CallerIdentity.DEMO_COOKIE, "")
                .httpOnly(true).sameSite("Lax").path("/").maxAge(0).build();
        return ResponseEntity.ok()
                .header(HttpHeaders.SET_COOKIE, cookie.toString())
                .body(ApiResponse.of("SIGNED_OUT", "Signed out.", null));
    }
}
