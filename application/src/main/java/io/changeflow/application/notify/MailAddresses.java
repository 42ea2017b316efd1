package io.changeflow.application.notify;

import io.changeflow.application.port.out.DemoPeople;
import java.util.Optional;

/**
 * A person's e-mail address: the directory's when it has one, otherwise {@code account@mailDomain}. Accounts the
 * system acts as ({@code system}) get no mail.
 */
public final class MailAddresses {

    private final DemoPeople people;
    private final String mailDomain;

    public MailAddresses(DemoPeople people, String mailDomain) {
        this.people = people;
        this.mailDomain = mailDomain;
    }

    public Optional<String> of(String account) {
        if (account == null || account.isBlank() || account.equals("system") || !account.matches("[A-Za-z0-9._\\-]+")) {
            return Optional.empty();
        }
        var known = people.byAccount(account).map(DemoPeople.Person::email).filter(e -> e != null && e.contains("@"));
        return Optional.of(known.orElse(account + "@" + mailDomain));
    }
}
