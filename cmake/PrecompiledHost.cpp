// Compiled only so that its target builds the precompiled header its users share
// (cmake/Precompiled.cmake).
