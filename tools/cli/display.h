#pragma once
// Rendering through VTK needs an X display. A tool that renders calls this first: with no
// DISPLAY it runs itself again under xvfb-run (a virtual display), so that pictures come out
// on a headless machine or in a batch job without the user arranging anything.
namespace scree::cli {

// Returns when there is a display (or after xvfb-run ran this program: then it exits with
// its status). Throws std::runtime_error when there is none and xvfb-run is not installed.
void ensure_display(int argc, char** argv);

}  // namespace scree::cli
