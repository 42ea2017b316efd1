package io.changeflow.adapter.web;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Import;

/** The web adapter as the embedded default run wires it: its own directory and permissions, the demo login. */
@SpringBootConfiguration
@EnableAutoConfiguration
@Import({WebConfiguration.class, TestEndpoints.class, ResponseRecording.class})
class SandboxTestApplication {
}
