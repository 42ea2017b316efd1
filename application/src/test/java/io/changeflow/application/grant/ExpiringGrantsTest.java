package io.changeflow.application.grant;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.fake.FakeTargets;
import io.changeflow.application.fake.InMemoryChangeflow;
import io.changeflow.domain.operation.Binding;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Issue 18, item 5: the operators see how many grants expire in the next 24 hours, and the soonest of them. */
class ExpiringGrantsTest {

    private static final Duration DAY = Duration.ofHours(24);

    private final InMemoryChangeflow app = new InMemoryChangeflow();


    private ListExpiringGrants.Result.Listed listed(Duration within, int limit) {
        var result = app.expiringGrants.list(new ListExpiringGrants.Command(within, limit));
        assertThat(result).isInstanceOf(ListExpiringGrants.Result.Listed.class);
        return (ListExpiringGrants.Result.Listed) result;
    }

    @Test
    void countsTheGrantsInEffectExpiringWithinTheWindowSoonestFirst() {
        var now = app.clock.instant();
        app.grantInEffect("later", "later", now.plus(Duration.ofHours(23)));
        app.grantInEffect("soon", "soon", now.plus(Duration.ofHours(1)));
        app.grantInEffect("next-week", "next-week", now.plus(Duration.ofDays(7)));
        app.grantInEffect("forever", "forever", null);
        app.grantInEffect("given-up", "given-up", now.plus(Duration.ofHours(2)));
        app.removeGrant.remove(RemoveGrant.Command.giveUp(null, FakeTargets.SINGLE.value(), "given-up"));
        app.grantInEffect("revoked", "revoked", now.plus(Duration.ofHours(3)));
        app.removeGrant.remove(RemoveGrant.Command.revoke("revoked", FakeTargets.SINGLE.value(), "otto", Map.of()));

        var day = listed(DAY, 50);
        assertThat(day.count()).as("in effect, within 24 h; removals under way and grants for good do not count")
                .isEqualTo(2);
        assertThat(day.first()).extracting(b -> b.subject().value()).containsExactly("soon", "later");
        assertThat(day.hasMore()).isFalse();
        assertThat(listed(Duration.ofDays(8), 50).count()).isEqualTo(3);
    }

    @Test
    void aGrantPastItsExpiryThatTheJobHasNotTakenYetStillCounts() {
        app.grantInEffect("overdue", "overdue", app.clock.instant().plus(Duration.ofMinutes(5)));
        app.clock.advance(Duration.ofMinutes(10));
        assertThat(listed(DAY, 50).first()).extracting(b -> b.subject().value()).containsExactly("overdue");

        app.expireGrants.run(new ExpireGrants.Command());
        assertThat(listed(DAY, 50).count()).as("taken by the expiry job: being removed").isZero();
    }

    @Test
    void theFirstPageIsBoundedAndTheCountIsOfTheWholeWindow() {
        for (var i = 0; i < 7; i++) {
            app.grantInEffect("s" + i, "s" + i, app.clock.instant().plus(Duration.ofHours(10 - i)));
        }
        var page = listed(DAY, 3);
        assertThat(page.count()).isEqualTo(7);
        assertThat(page.first()).extracting(Binding::subject).extracting(s -> s.value()).containsExactly("s6", "s5", "s4");
        assertThat(page.hasMore()).isTrue();
        assertThat(listed(DAY, 0).first()).as("a limit below one lists one").hasSize(1);
        assertThat(listed(DAY, 100_000).first()).as("clamped to the maximum, here all").hasSize(7);
    }

    @Test
    void aWindowThatIsNotPositiveOrLongerThanTheMaximumIsRefused() {
        for (var within : new Duration[] {Duration.ZERO, Duration.ofHours(-1), ListExpiringGrants.MAX_WITHIN.plusSeconds(1)}) {
            assertThat(app.expiringGrants.list(new ListExpiringGrants.Command(within, 50)))
                    .isEqualTo(new ListExpiringGrants.Result.OutOfRange(within));
        }
        assertThat(app.expiringGrants.list(new ListExpiringGrants.Command(ListExpiringGrants.MAX_WITHIN, 50)))
                .isInstanceOf(ListExpiringGrants.Result.Listed.class);
    }
}
