package io.changeflow.archfixture.adapter.local;

import io.changeflow.archfixture.adapter.web.WebUsingPersistence;
import org.springframework.http.HttpStatus;

/** Deliberate violation: a local (non-web) adapter class using the web adapter and Spring's HTTP types. */
public class LocalUsingWeb {

    WebUsingPersistence wiring = new WebUsingPersistence();
    HttpStatus status = HttpStatus.OK;
}
