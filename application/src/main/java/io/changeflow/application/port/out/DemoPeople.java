package io.changeflow.application.port.out;

import java.util.List;
import java.util.Optional;

/**
 * The people of the company directory the sandbox's demo login offers (in the sandbox the demo
 * directory: alice, bob, amy, otto). Read once at start-up; never throws.
 */
public interface DemoPeople {

    /** One person; {@code employeeId}, {@code email} and {@code role} are null when the directory lacks them. */
    record Person(String account, String employeeId, String email, String role) {}

    /** Everyone, ordered by account; empty when the directory is empty or unreadable. */
    List<Person> people();

    /** The person with this account (case-insensitive, surrounding whitespace ignored); empty when unknown. */
    Optional<Person> byAccount(String account);
}
